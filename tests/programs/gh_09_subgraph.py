# Source: hereandnowai/ai-agent-mastery, plan-b-gcloud-with-vs-code/03-langgraph-tiny-projects/09_subgraph.py
#   at commit 875209927f7675ed50ec3a933a3c46c7cabe7015 (https://github.com/hereandnowai/ai-agent-mastery),
#   a course's tiny project: a plain-dict state, entry and finish points, a compiled subgraph as
#   a node, and no name for the compiled parent (only its builder `main`).
# License: none stated in the repository.
# Adapted: the demo print(main.compile().invoke({})) at the end left to the manifest.
from dotenv import load_dotenv
load_dotenv()
from langgraph.graph import StateGraph
sub = StateGraph(dict)
sub.add_node("s", lambda s: {"x": 1})
sub.set_entry_point("s")
sub.set_finish_point("s")
main = StateGraph(dict)
main.add_node("sub", sub.compile())
main.set_entry_point("sub")
main.set_finish_point("sub")
