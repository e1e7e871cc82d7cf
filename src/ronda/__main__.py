try:
    from ronda.cli.main import main
except KeyboardInterrupt:  # Ctrl-C while Python loads ronda: gone quietly, as the shell expects
    raise SystemExit(130) from None

raise SystemExit(main())
