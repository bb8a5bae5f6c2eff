from farkle_trainer.entry import main

main()
