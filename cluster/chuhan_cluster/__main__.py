from chuhan_cluster.cli import main

raise SystemExit(main())
