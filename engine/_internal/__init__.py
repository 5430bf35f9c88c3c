"""Private modules at langgraph's private paths, for third-party packages that import them
(deepagents reads `langgraph._internal._constants`)."""
