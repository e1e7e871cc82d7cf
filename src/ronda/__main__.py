from ronda.cli.main import main

raise SystemExit(main())
