"""The graph spec: the saved form of a drawn graph, and what turns it into a running graph.

Dependency direction: studio -> spec -> engine. Nothing here imports Qt.

    spec.model        pydantic models, versions and migrations, byte-stable JSON load/save
    spec.expressions  safe expressions (an AST whitelist, no eval) and their Python translation
    spec.trust        which elements carry Python code; refusing to run untrusted code
    spec.compiler     spec -> engine StateGraph
    spec.validator    graph checks with networkx, each finding with severity, element id, JSON path
    spec.export       spec -> standalone langgraph module, Mermaid, JSON Schema of the state
    spec.importer     a Python module holding a compiled graph -> spec
    spec.templates    the bundled templates/ gallery
    spec.cli          the `superstep` command line
"""
