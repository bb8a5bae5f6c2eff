from farkle_trainer.cli import main

main()
