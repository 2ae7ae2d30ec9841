complete --keep-order --exclusive --command aksgpu --arguments "(COMPLETE=fish aksgpu -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
