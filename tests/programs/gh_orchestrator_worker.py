# Source: JonasWZW/langchain_v1, grap_learn/workflow_and_agent/orchestrator_worker.py at commit
#   478c5d22b40a4d5ce2963d3917b8544dd9c45a76
#   (https://github.com/JonasWZW/langchain_v1/blob/478c5d22b40a4d5ce2963d3917b8544dd9c45a76/grap_learn/workflow_and_agent/orchestrator_worker.py),
#   a learner's orchestrator-worker: a pydantic plan from with_structured_output, one Send per
#   section to a worker node with its own WorkerState, the sections gathered with operator.add.
# License: none found (no license file among the repository's indexed files).
# Adapted: `from config import deepseek` (an init_chat_model with the author's base URL and API
#   key) replaced by a scripted model (a plan of two sections, then one section text for both
#   workers, so the parallel calls may come in any order); the IPython display of the graph's
#   PNG, the demo invoke and its Markdown view dropped (the manifest makes the call).
from typing import Annotated, List
import operator

from langchain_core.messages import SystemMessage, HumanMessage
from pydantic import BaseModel, Field
from typing_extensions import TypedDict
from langgraph.graph import StateGraph, START, END
from _offline import ScriptedChatModel

deepseek = ScriptedChatModel(
    responses=[
        {"sections": [
            {"name": "Introduction", "description": "What scaling laws are"},
            {"name": "Compute", "description": "How loss falls with compute"},
        ]},
        "## Section\n\nLoss falls as a power law in parameters, data and compute.",
    ]
)

llm = deepseek


# Schema for structured output to use in planning
class Section(BaseModel):
    name: str = Field(
        description="Name for this section of the report.",
    )
    description: str = Field(
        description="Brief overview of the main topics and concepts to be covered in this section.",
    )


class Sections(BaseModel):
    sections: List[Section] = Field(
        description="Sections of the report.",
    )


# Augment the LLM with schema for structured output
planner = llm.with_structured_output(Sections)

from langgraph.types import Send


# Graph state
class State(TypedDict):
    topic: str  # Report topic
    sections: list[Section]  # List of report sections
    completed_sections: Annotated[
        list, operator.add
    ]  # All workers write to this key in parallel
    final_report: str  # Final report


# Worker state
class WorkerState(TypedDict):
    section: Section
    completed_sections: Annotated[list, operator.add]


# Nodes
def orchestrator(state: State):
    """Orchestrator that generates a plan for the report"""

    # Generate queries
    report_sections = planner.invoke(
        [
            SystemMessage(content="Generate a plan for the report."),
            HumanMessage(content=f"Here is the report topic: {state['topic']}"),
        ]
    )

    return {"sections": report_sections.sections}


def llm_call(state: WorkerState):
    """Worker writes a section of the report"""

    # Generate section
    section = llm.invoke(
        [
            SystemMessage(
                content="Write a report section following the provided name and description. Include no preamble for each section. Use markdown formatting."
            ),
            HumanMessage(
                content=f"Here is the section name: {state['section'].name} and description: {state['section'].description}"
            ),
        ]
    )

    # Write the updated section to completed sections
    return {"completed_sections": [section.content]}


def synthesizer(state: State):
    """Synthesize full report from sections"""

    # List of completed sections
    completed_sections = state["completed_sections"]

    # Format completed section to str to use as context for final sections
    completed_report_sections = "\n\n---\n\n".join(completed_sections)

    return {"final_report": completed_report_sections}


# Conditional edge function to create llm_call workers that each write a section of the report
def assign_workers(state: State):
    """Assign a worker to each section in the plan"""

    # Kick off section writing in parallel via Send() API
    # todo Orchestrator-worker 工作流提供了更高的灵活性，通常用于无法像并行化那样预定义子任务的情况。这在编写代码或需要跨多个文件更新内容的工作流中很常见
    return [Send("llm_call", {"section": s}) for s in state["sections"]]


# Build workflow
orchestrator_worker_builder = StateGraph(State)

# Add the nodes
orchestrator_worker_builder.add_node("orchestrator", orchestrator)
orchestrator_worker_builder.add_node("llm_call", llm_call)
orchestrator_worker_builder.add_node("synthesizer", synthesizer)

# Add edges to connect nodes
orchestrator_worker_builder.add_edge(START, "orchestrator")
orchestrator_worker_builder.add_conditional_edges(
    "orchestrator", assign_workers, ["llm_call"]
)
orchestrator_worker_builder.add_edge("llm_call", "synthesizer")
orchestrator_worker_builder.add_edge("synthesizer", END)

# Compile the workflow
orchestrator_worker = orchestrator_worker_builder.compile()
