# Source: hereandnowai/ai-agent-mastery, plan-b-gcloud-with-vs-code/03-langgraph-tiny-projects/08_human_interrupt.py
#   at commit 875209927f7675ed50ec3a933a3c46c7cabe7015 (https://github.com/hereandnowai/ai-agent-mastery),
#   a course's tiny project: interrupt_before on a plain-dict graph compiled without a
#   checkpointer.
# License: none stated in the repository.
# Adapted: nothing (its print runs at import, as it does for its author).
from dotenv import load_dotenv
load_dotenv()
from langgraph.graph import StateGraph
builder = StateGraph(dict)
builder.add_node("a", lambda s: s)
builder.set_entry_point("a")
builder.set_finish_point("a")
graph = builder.compile(interrupt_before=["a"])
# This will stop before node 'a'
print("Graph compiled with interruption")
