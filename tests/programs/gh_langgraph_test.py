# Source: shubhkhare9/ai-calendar-booking-new, langgraph_test.py at commit
#   10871847942215fd49bdc10c5e424e740952ac95 (https://github.com/shubhkhare9/ai-calendar-booking-new),
#   an app author's first check of LangGraph: a dict subclass as the state, entry and finish points.
# License: none stated in the repository.
# Adapted: the demo invoke and its print at the end left to the manifest (the author's "Final
#   output" is None on langgraph: a state class with no fields keeps nothing).
from langgraph.graph import StateGraph

# A simple state class (just a dictionary)
class MyState(dict):
    pass

# A single function node
def node(state):
    print("🧠 Node ran with state:", state)
    return state

# Define the LangGraph flow
g = StateGraph(MyState)
g.add_node("start", node)
g.set_entry_point("start")
g.set_finish_point("start")
g = g.compile()
