# Source: langchain-ai/langgraph-bigtool, README.md, the quickstart (an agent over every function
#   of Python's math module, its tools found by a semantic search of an InMemoryStore), as
#   released in langgraph-bigtool 0.0.3 (https://pypi.org/project/langgraph-bigtool/0.0.3/).
# License: MIT, (c) 2025 LangChain (langgraph_bigtool-0.0.3.dist-info/licenses/LICENSE)
# Adapted: init_chat_model("openai:gpt-4o-mini") replaced by a scripted model (it retrieves tools
#   for "arc cosine calculation" and answers; it calls no retrieved tool, as the README's model
#   does with acos: bigtool 0.0.3's router calls ToolNode.inject_tool_args, which langgraph-
#   prebuilt 1.x no longer has, so that call fails on langgraph as on the engine, with the same
#   AttributeError); init_embeddings("openai:text-embedding-3-small") replaced by a local
#   embedding (words hashed into the same 1536 dimensions); the bare `agent` line (a notebook's
#   display) and the demo stream left to the manifest, which streams the updates as the README
#   does.
import math
import re
import types
import uuid
import zlib

from _offline import ScriptedChatModel, calls
from langgraph.store.memory import InMemoryStore

from langgraph_bigtool import create_agent
from langgraph_bigtool.utils import (
    convert_positional_only_function_to_tool
)

# Collect functions from `math` built-in
all_tools = []
for function_name in dir(math):
    function = getattr(math, function_name)
    if not isinstance(
        function, types.BuiltinFunctionType
    ):
        continue
    # This is an idiosyncrasy of the `math` library
    if tool := convert_positional_only_function_to_tool(
        function
    ):
        all_tools.append(tool)

# Create registry of tools. This is a dict mapping
# identifiers to tool instances.
tool_registry = {
    str(uuid.uuid4()): tool
    for tool in all_tools
}


def embeddings(texts: list[str]) -> list[list[float]]:  # adapted: a local embedding
    vectors = []
    for text in texts:
        vector = [0.0] * 1536
        for word in re.findall(r"[a-z]+", text.lower()):
            vector[zlib.crc32(word.encode()) % 1536] += 1.0
        vectors.append(vector)
    return vectors


# Index tool names and descriptions in the LangGraph
# Store. Here we use a simple in-memory store.
store = InMemoryStore(
    index={
        "embed": embeddings,
        "dims": 1536,
        "fields": ["description"],
    }
)
for tool_id, tool in tool_registry.items():
    store.put(
        ("tools",),
        tool_id,
        {
            "description": f"{tool.name}: {tool.description}",
        },
    )

# Initialize agent
llm = ScriptedChatModel(  # adapted: the scripted model, in call order
    responses=[
        calls(("retrieve_tools", {"query": "arc cosine calculation"})),
        "acos is the tool for it: the arc cosine of 0.5 is about 1.0472 radians.",
    ]
)

builder = create_agent(llm, tool_registry)
agent = builder.compile(store=store)
