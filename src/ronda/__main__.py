from ronda.interfaces.cli import main

raise SystemExit(main())
