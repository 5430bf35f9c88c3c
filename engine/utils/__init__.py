"""langgraph.utils: the legacy module path packages built on langgraph still import
(langgraph-bigtool, trustcall, langmem)."""
