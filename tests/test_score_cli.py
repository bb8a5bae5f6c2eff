"""``farkle-train score`` as a learner meets it: plain lines, interactive prompts, stopping, records."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from factories import interactive_frontend
from prompt_toolkit.input import PipeInput
from rich.console import Console
from typer.testing import CliRunner

from farkle_trainer import load_rules
from farkle_trainer.cli import app
from farkle_trainer.engine.rules import Rules
from farkle_trainer.engine.scoring import score_table
from farkle_trainer.store.db import Store
from farkle_trainer.training.frontend import STOP_NOTE
from farkle_trainer.training.progress import export_answers, load_progress, load_stats
from farkle_trainer.training.quizzes.questions import Question
from farkle_trainer.training.quizzes.quiz import fixed_questions, grade, make_quiz, summarize
from farkle_trainer.training.quizzes.session import quiz_stream
from farkle_trainer.training.quizzes.topics import question
from farkle_trainer.ui import terminal as frontend
from farkle_trainer.ui.views.quiz import duration, feedback_rich, summary_rich, summary_text

runner = CliRunner()
CLASSIC = load_rules("classic")


def questions(seed: int, count: int, topics: tuple[str, ...] = (), rules: Rules = CLASSIC) -> list[Question]:
    """The questions a seeded quiz asks, as the command will ask them."""
    quiz = make_quiz(
        rules, quiz_stream(seed), count=count, topics=topics or ("worth", "valid", "farkle", "best", "combos")
    )
    return fixed_questions(quiz)


def right_answer(q: Question) -> int | bool | tuple[int, ...]:
    table = score_table(q.rules)
    if q.form == "points":
        split = table.split(q.counts)
        return 0 if split is None else split.points
    if q.form == "yes-no":
        return table.split(q.counts) is not None if q.topic == "valid" else table.is_farkle(q.counts)
    best = table.best_selection(q.counts)
    assert best is not None
    return best.dice


def wrong_answer(q: Question) -> int | bool | tuple[int, ...]:
    right = right_answer(q)
    if isinstance(right, bool):
        return not right
    if isinstance(right, int):
        return right + 50
    best = score_table(q.rules).best_selection(q.counts)
    assert best is not None
    return next(s.dice for s in score_table(q.rules).selections(q.counts) if s.points < best.points)


def typed(answer: int | bool | tuple[int, ...]) -> str:
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    if isinstance(answer, int):
        return f"{answer:,}"
    return " ".join(str(d) for d in answer)


def run(args: list[str], stdin: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["score", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def store(home: Path) -> Store:
    return Store.open(home)


# -- plain, through a pipe


def test_the_readme_example() -> None:
    code, out, _ = run(["--plain", "--seed", "7", "--count", "3"], "y\nno\n1 5 5 5\n")
    assert code == 0
    assert out.splitlines() == [
        "Scoring quiz: 3 questions on classic rules (seed 7, medium level).",
        STOP_NOTE,
        "1/3 Is 6-3-4-2 a Farkle? (y/n) y",
        "  Right. Yes, a Farkle: nothing in 6-3-4-2 scores (no 1 or 5, no three alike).",
        "2/3 Can you set aside 3-5-5-5? (y/n) no",
        "  Right. No: 3-5-5-5 can't all be set aside.",
        "  3: a single 3 scores nothing: 3s score only as three or more alike or in a straight.",
        "  The rest, 5-5-5, scores 500: three 5s 500.",
        "3/3 You rolled a:5 b:6 c:1 d:5 e:5 f:5. Set aside the most points: 1 5 5 5",
        "  Wrong: you picked 1-5-5-5, worth 600. "
        "The most is 1-5-5-5-5 for 1,100: four 5s 1,000 + single 1 100.",
        "Score: 2 of 3 right.",
        "Missed: best 1 of 1.",
        "Missed questions, with the right answers:",
        "  You rolled 5-6-1-5-5-5: set aside the most points. You said 1 5 5 5; right: 1 5 5 5 5.",
        "Next: farkle-train score --topic best (you missed 1 of 1 best question).",
        "Kept as training progress (see farkle-train progress); nothing counts in stats.",
    ]


@pytest.mark.parametrize("topic", ["worth", "valid", "farkle", "best", "combos"])
def test_every_kind_graded_right_and_wrong_in_plain(topic: str) -> None:
    first, second = questions(5, 2, (topic,))
    stdin = f"{typed(right_answer(first))}\n{typed(wrong_answer(second))}\n"
    code, out, _ = run(["--plain", "--seed", "5", "--count", "2", "--topic", topic], stdin)
    assert code == 0, out
    lines = out.splitlines()
    assert lines[1] == STOP_NOTE
    assert lines[2].startswith("1/2 ") and lines[2].endswith(typed(right_answer(first)))
    assert lines[3].startswith("  Right. ")
    wrong = next(line for line in lines if line.startswith("  Wrong: "))
    assert grade(second, wrong_answer(second)).explanation[0] in wrong
    assert "Score: 1 of 2 right." in lines
    assert f"Missed: {topic} 1 of 2." in lines


def test_a_malformed_answer_is_asked_again_not_marked_wrong() -> None:
    (q,) = questions(1, 1, ("worth",))
    right = right_answer(q)
    assert isinstance(right, int)
    code, out, _ = run(
        ["--plain", "--seed", "1", "--count", "1", "--topic", "worth"], f"lots\n\n1 5 5\n{right}\n"
    )
    assert code == 0
    lines = out.splitlines()
    hint = "  (type a whole number of points, like 1100 or 1,100)"
    assert lines.count(hint) == 3
    assert [line for line in lines if line.startswith("1/1 ")][-1].endswith(str(right))
    assert "Score: 1 of 1 right." in lines


def first_seed(topic: str, wanted: Callable[[Question], bool]) -> int:
    """The first seed whose one-question quiz on ``topic`` asks what a test needs."""
    return next(seed for seed in range(200) if wanted(questions(seed, 1, (topic,))[0]))


def test_answers_in_any_usual_form() -> None:
    seed = first_seed("worth", lambda q: right_answer(q) >= 1000)  # type: ignore[operator]
    (q,) = questions(seed, 1, ("worth",))
    right = right_answer(q)
    assert isinstance(right, int)
    for form in (f"{right // 1000} {right % 1000:03d}", f"{right:,}", str(right)):
        code, out, _ = run(["--plain", "--seed", str(seed), "--count", "1", "--topic", "worth"], form + "\n")
        assert code == 0 and "Score: 1 of 1 right." in out


def test_a_pick_that_does_not_score_is_refused_with_the_reason() -> None:
    seed = first_seed("best", lambda q: any(f not in (1, 5) and q.counts[f - 1] < 3 for f in q.dice))
    (q,) = questions(seed, 1, ("best",))
    dead = next(f for f in q.dice if f not in (1, 5) and q.counts[f - 1] < 3)
    best = right_answer(q)
    assert isinstance(best, tuple)
    code, out, _ = run(
        ["--plain", "--seed", str(seed), "--count", "1", "--topic", "best"],
        f"{dead}\nz\n{typed(best)}\n",
    )
    assert code == 0
    assert "  (every die set aside must score, and a single" in out
    assert "  ('z' is not a place in this roll: places are a to" in out
    assert "Score: 1 of 1 right." in out


def test_places_pick_dice_too() -> None:
    (q,) = questions(2, 1, ("best",))
    best = list(right_answer(q))  # type: ignore[arg-type]
    places = []
    for i, face in enumerate(q.dice):
        if face in best:
            best.remove(face)
            places.append("abcdef"[i])
    code, out, _ = run(["--plain", "--seed", "2", "--count", "1", "--topic", "best"], "".join(places) + "\n")
    assert code == 0 and "Score: 1 of 1 right." in out


def test_end_of_input_stops_cleanly_and_keeps_the_answers(farkle_home: Path) -> None:
    code, out, _ = run(["--plain", "--seed", "3", "--count", "5"], "0\nyes\n")
    assert code == 0
    assert "Stopped after 2 of 5 questions" in out
    with store(farkle_home) as s:
        progress = load_progress(s)
        assert progress.answers == 2 and progress.sessions == 1
        assert load_stats(s).games_played == 0


def test_answers_land_in_progress_not_stats(farkle_home: Path) -> None:
    qs = questions(4, 5)
    stdin = "".join(typed(right_answer(q)) + "\n" for q in qs)
    code, out, _ = run(["--plain", "--seed", "4", "--count", "5"], stdin)
    assert code == 0 and "Score: 5 of 5 right." in out
    with store(farkle_home) as s:
        progress = load_progress(s)
        assert progress.answers == 5 and progress.correct == 5
        assert {t.kind for t in progress.topics} == {"score"}
        assert {t.topic for t in progress.topics} == {q.topic for q in qs}
        stats = load_stats(s)
        assert stats.games_played == 0 and stats.best is None
    exported = farkle_home / "answers.json"
    with store(farkle_home) as s:
        export_answers(s, exported)
    text = exported.read_text()
    assert qs[0].text.replace('"', '\\"') in text and '"grade": "right"' in text


def test_an_adaptive_quiz_brings_back_what_was_missed(farkle_home: Path) -> None:
    code, out, _ = run(["--plain", "--count", "1", "--topic", "worth"], "0\n")
    assert code == 0 and "Score: 0 of 1 right." in out
    missed = next(line for line in out.splitlines() if line.startswith("1/1 "))
    question = missed.removeprefix("1/1 ").removesuffix(" 0")
    code, out, _ = run(["--plain", "--count", "3", "--topic", "worth"], "")
    assert "matched to your progress, 1 from earlier sessions" in out
    assert f"1/3 (review) {question}" in out


def test_the_rules_decide_the_answers() -> None:
    # Seed 2's one combos question is 2-2-6-6-6-6: four of a kind and a pair.
    args = ["--plain", "--seed", "2", "--count", "1", "--topic", "combos"]
    code, out, _ = run([*args, "--rules", "fixed"], "1500\n")
    assert code == 0 and "on fixed rules" in out
    assert "  Right. 2-2-6-6-6-6 are worth 1,500: four 6s and a pair of 2s 1,500." in out
    code, out, _ = run(args, "1500\n")
    assert "  Wrong: you said 1,500. 0 points: 2-2-6-6-6-6 can't all be set aside." in out
    assert "Next: farkle-train score --topic combos (you missed 1 of 1 combos question)." in out
    code, out, _ = run([*args, "--rules", "fixed"], "0\n")
    assert "Next: farkle-train score --topic combos --rules fixed" in out


class StopAt(frontend.PlainFrontend):
    """A plain front end whose user presses Ctrl-C at the ``stop``-th question."""

    stop = 3
    asked = 0

    def _read(self, prompt: str) -> str:
        self.asked += 1
        if self.asked == self.stop:
            raise KeyboardInterrupt
        return super()._read(prompt)


def test_ctrl_c_stops_with_a_summary_and_keeps_the_answers(
    farkle_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.StringIO()
    monkeypatch.setattr(
        frontend, "open_terminal", lambda plain: StopAt(io.StringIO("0\n0\n0\n"), out, echo=True)
    )
    result = runner.invoke(app, ["score", "--seed", "3", "--count", "5", "--topic", "worth"])
    assert result.exit_code == 130
    assert "Stopped after 2 of 5 questions: 0 right." in out.getvalue()
    with store(farkle_home) as s:
        assert load_progress(s).answers == 2


# -- interactive, through prompt_toolkit's pipe input


@pytest.fixture
def pipe(pipe: PipeInput, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[PipeInput, io.StringIO]]:
    front, out = interactive_frontend(pipe)
    monkeypatch.setattr(frontend, "open_terminal", lambda plain: front)
    yield pipe, out


def keys(q: Question, answer: int | bool | tuple[int, ...]) -> str:
    """What a learner presses to give ``answer``: y or n, a number and Enter, or the faces typed."""
    if isinstance(answer, bool):
        return "y" if answer else "n"
    if isinstance(answer, int):
        return f"{answer}\r"
    return " ".join(str(face) for face in answer) + "\r"


@pytest.mark.parametrize("topic", ["worth", "valid", "farkle", "best", "combos"])
def test_every_kind_graded_right_and_wrong_interactively(
    topic: str, pipe: tuple[PipeInput, io.StringIO], farkle_home: Path
) -> None:
    inp, out = pipe
    first, second = questions(6, 2, (topic,))
    inp.send_text(keys(first, right_answer(first)) + keys(second, wrong_answer(second)))
    result = runner.invoke(app, ["score", "--seed", "6", "--count", "2", "--topic", topic])
    assert result.exit_code == 0, result.output
    shown = out.getvalue()
    assert "╭─ right" in shown and "╭─ wrong" in shown
    assert "Right. " + grade(first, right_answer(first)).explanation[0][:40] in " ".join(shown.split())
    assert grade(second, wrong_answer(second)).verdict in " ".join(shown.split())
    assert "Score: 1 of 2 right." in shown
    with store(farkle_home) as s:
        assert load_progress(s).answers == 2


def test_interactive_refuses_a_malformed_answer(pipe: tuple[PipeInput, io.StringIO]) -> None:
    inp, out = pipe
    (q,) = questions(1, 1, ("worth",))
    inp.send_text(f"lots\r\x7f\x7f\x7f\x7f{right_answer(q)}\r")
    result = runner.invoke(app, ["score", "--seed", "1", "--count", "1", "--topic", "worth"])
    assert result.exit_code == 0
    assert "Score: 1 of 1 right." in out.getvalue()


def test_interactive_ctrl_c_and_ctrl_d(pipe: tuple[PipeInput, io.StringIO], farkle_home: Path) -> None:
    inp, out = pipe
    first, _ = questions(1, 2, ("worth",))
    inp.send_text(keys(first, right_answer(first)) + "\x03")
    result = runner.invoke(app, ["score", "--seed", "1", "--count", "2", "--topic", "worth"])
    assert result.exit_code == 130
    assert "Stopped after 1 of 2 questions: 1 right." in out.getvalue()
    inp.send_text("\x04")
    result = runner.invoke(app, ["score", "--seed", "1", "--count", "2", "--topic", "worth"])
    assert result.exit_code == 0
    assert "Stopped before the first answer: nothing was recorded." in out.getvalue()
    with store(farkle_home) as s:
        assert load_progress(s).answers == 1


# -- rendering and errors


def rich_text(renderable: object, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_feedback_panel() -> None:
    right = rich_text(feedback_rich(grade(question("worth", (1, 5), CLASSIC), 150)))
    assert right.splitlines() == [
        "╭─ right ───────────────────────────────────────────────╮",
        "│ Right. 1-5 are worth 150: single 1 100 + single 5 50. │",
        "╰───────────────────────────────────────────────────────╯",
    ]
    wrong = rich_text(feedback_rich(grade(question("combos", (2, 2, 2, 2, 3, 3), CLASSIC), 1500)))
    assert wrong.splitlines()[:2] == [
        "╭─ wrong ──────────────────────────────────────────────────────────────────────╮",
        "│ Wrong: you said 1,500. 0 points: 2-2-2-2-3-3 can't all be set aside.         │",
    ]
    assert "│ The rest, 2-2-2-2, scores 1,000: four 2s 1,000." in wrong
    assert "Four of a kind and a pair are not three pairs" in wrong


def test_the_summary_with_time() -> None:
    quiz = make_quiz(CLASSIC, quiz_stream(1), count=2)
    qs = fixed_questions(quiz)
    from farkle_trainer.training.quizzes.quiz import Answered

    history = [Answered(q, grade(q, right_answer(q))) for q in qs]
    summary = summarize(quiz, history, seconds=75.0)
    assert summary_text(summary).splitlines()[:2] == [
        "Score: 2 of 2 right.",
        "Time: 1 min 15 s, 38 s a question.",
    ]
    assert "Score: 2 of 2 right." in rich_text(summary_rich(summary))
    assert duration(42.4) == "42 s" and duration(3725) == "1 h 02 min"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--topic", "scores"],
            "Error: unknown topic 'scores': choose from worth, valid, farkle, best, combos",
        ),
        (["--level", "expert"], "Error: unknown level 'expert': choose easy, medium or hard"),
        (["--rules", "nope"], "Error: unknown rules 'nope'"),
    ],
)
def test_bad_options_are_one_line(args: list[str], message: str) -> None:
    code, out, err = run(["--plain", *args], "")
    assert code == 2 and out == ""
    assert err.startswith(message) and len(err.splitlines()) == 1


def test_count_is_checked() -> None:
    result = runner.invoke(app, ["score", "--count", "0"])
    assert result.exit_code == 2


def test_an_adaptive_quiz_at_a_chosen_level_says_the_level() -> None:
    result = runner.invoke(app, ["score", "--level", "hard", "--count", "3", "--plain"], input="q\n")
    assert result.stdout.startswith(
        "Scoring quiz: 3 questions on classic rules at hard level, topics matched to your progress."
    )
