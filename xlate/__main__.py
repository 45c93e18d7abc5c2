from xlate.cli import main

raise SystemExit(main())
