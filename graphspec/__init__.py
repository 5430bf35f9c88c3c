"""The graph spec: the saved form of a drawn graph, and what turns it into a running graph.

Dependency direction: studio -> spec -> engine. Nothing here imports Qt.

    graphspec.model        pydantic models, versions and migrations, byte-stable JSON load/save
    graphspec.expressions  safe expressions (an AST whitelist, no eval) and their Python translation
    graphspec.trust        which elements carry Python code; refusing to run untrusted code
    graphspec.compiler     spec -> engine StateGraph
    graphspec.validator    graph checks (graphspec.digraph), each finding with severity, element id, JSON path
    graphspec.export       spec -> standalone langgraph module, Mermaid, JSON Schema of the state
    graphspec.importer     a Python module holding a compiled graph -> spec
    graphspec.templates    the bundled templates/ gallery
    graphspec.errors       SpecError and its kinds; Finding, one located problem, printed one way
    graphspec.commands     the work behind `superstep run | validate | export | templates | demo`
"""
