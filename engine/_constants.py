"""Reserved names shared by the builder and the runtime (the same strings as langgraph's).

The engine imports them from here; `engine.constants` is the public module, where most of these
are deprecated like langgraph's private constants.
"""

import sys
from types import MappingProxyType
from typing import Any

START = sys.intern("__start__")
"""The first (virtual) node: its channel carries the graph input."""
END = sys.intern("__end__")
"""The last (virtual) node: an edge to END writes nothing."""
TAG_HIDDEN = sys.intern("langsmith:hidden")
TAG_NOSTREAM = sys.intern("nostream")

# --- reserved channel names and write keys ---
INPUT = sys.intern("__input__")
INTERRUPT = sys.intern("__interrupt__")
RESUME = sys.intern("__resume__")
DEFAULT_INTERRUPT_ID = "placeholder-id"
"""The id of an Interrupt made without one (langgraph's): a node's raised NodeInterrupt has it,
where `interrupt()` derives its id from the task."""
ERROR = sys.intern("__error__")
ERROR_SOURCE_NODE = sys.intern("__error_source_node__")
"""Pending write (task id, ERROR_SOURCE_NODE, node name): the failure went to an error handler."""
NO_WRITES = sys.intern("__no_writes__")
TASKS = sys.intern("__pregel_tasks")
RETURN = sys.intern("__return__")
PREVIOUS = sys.intern("__previous__")
"""A functional-API entrypoint's saved value, handed to its next run as `previous`."""
PUSH = sys.intern("__pregel_push")
OVERWRITE = sys.intern("__overwrite__")
"""The key of an Overwrite in its dict forms ({"__overwrite__": v}, Overwrite's JSON)."""
PULL = sys.intern("__pregel_pull")
NULL_TASK_ID = sys.intern("00000000-0000-0000-0000-000000000000")
RESERVED = frozenset(
    {TASKS, INTERRUPT, RESUME, ERROR, ERROR_SOURCE_NODE, NO_WRITES, RETURN, PUSH, PULL, INPUT}
)

# --- namespaces: parent|child:task_id ---
SNAPSHOT_BUMPS = sys.intern("__snapshot_bumps__")
"""versions_seen entry recording the versions a delta snapshot's bump advanced (deltas.bump_snapshots)."""
NS_SEP = sys.intern("|")
NS_END = sys.intern(":")

# --- keys of config["configurable"] used by the runtime ---
CONF = sys.intern("configurable")
CONFIG_KEY_SEND = sys.intern("__pregel_send")
CONFIG_KEY_CALL = sys.intern("__pregel_call")
CONFIG_KEY_READ = sys.intern("__pregel_read")
CONFIG_KEY_CHECKPOINTER = sys.intern("__pregel_checkpointer")
CONFIG_KEY_STREAM = sys.intern("__pregel_stream")
CONFIG_KEY_STORE = sys.intern("__pregel_store")
CONFIG_KEY_CACHE = sys.intern("__pregel_cache")
CONFIG_KEY_RUNTIME = sys.intern("__pregel_runtime")
CONFIG_KEY_SCRATCHPAD = sys.intern("__pregel_scratchpad")
CONFIG_KEY_CHECKPOINT_NS = sys.intern("checkpoint_ns")
CONFIG_KEY_CHECKPOINT_ID = sys.intern("checkpoint_id")
CONFIG_KEY_CHECKPOINT_MAP = sys.intern("checkpoint_map")
CONFIG_KEY_THREAD_ID = sys.intern("thread_id")
CHECKPOINT_COORDINATE_KEYS = (
    CONFIG_KEY_THREAD_ID,
    CONFIG_KEY_CHECKPOINT_NS,
    CONFIG_KEY_CHECKPOINT_ID,
    CONFIG_KEY_CHECKPOINT_MAP,
)
"""The configurable keys that address a checkpoint (a thread, a namespace, an id, the map)."""
CONFIG_KEY_TASK_ID = sys.intern("__pregel_task_id")
CONFIG_KEY_RESUMING = sys.intern("__pregel_resuming")
CONFIG_KEY_RESUME_MAP = sys.intern("__pregel_resume_map")
CONFIG_KEY_REPLAY_STATE = sys.intern("__pregel_replay_state")
CONFIG_KEY_DURABILITY = sys.intern("__pregel_durability")
CONFIG_KEY_NODE_ERROR = sys.intern("__pregel_node_error")
CONFIG_KEY_NODE_FINISHED = sys.intern("__pregel_node_finished")
"""A callable the runner calls with a node's name when one of its tasks finishes (not hidden)."""
CONFIG_KEY_TIMED_ATTEMPT_OBSERVER = sys.intern("__pregel_timed_attempt_observer")
"""A callable given each start/progress/finish event of a timed node's attempts (a server's
watchdog; engine.pregel.attempt_observer)."""
CONFIG_KEY_OBSERVER = sys.intern("__superstep_observer")
CONFIG_KEY_TASK_HOOK = sys.intern("__superstep_task_hook")
"""Beyond langgraph: a debugger's hook, called in the task's thread before a task runs, after it
returned and when it raised (`engine.pregel.retry.TaskHook`); it follows the run into subgraphs."""

EMPTY_MAP: MappingProxyType[str, Any] = MappingProxyType({})
EMPTY_SEQ: tuple[str, ...] = ()
MISSING = object()
"""Sentinel for 'no value', distinct from None (a valid value)."""

CACHE_NS_WRITES = "__pregel_ns_writes"
