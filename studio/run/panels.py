"""The run panels, one module per dock; they only display what the runner hands them and emit
what the user asks. This module gathers them for the controller.

objectNames: `channelsTable`, `traceTree`, `traceScope`, `tracebackView`, `checkpointTree`,
`historyStateEditor`, `historyStateCaption`, `olderButton`, `replayButton`, `forkButton`,
`checkpointDiff`, `threadList` (`renameThreadButton`, `deleteThreadButton`), `eventsList`,
`eventsFilter`, `runInputChooser`, `runInputEditor`, `interruptPanel` (`interruptChooser`,
`interruptPayload`, `interruptAnswer`, `resumeButton`, `approveAllButton`, `rejectAllButton` for
human-in-the-loop reviews).
"""

from studio.run.channels_panel import ChannelsPanel
from studio.run.diff_panel import DiffPanel
from studio.run.events_panel import EventsPanel
from studio.run.history_panel import CheckpointTreeModel, HistoryPanel, checkpoint_forest
from studio.run.input_panels import InterruptPanel, RunInputPanel
from studio.run.threads_panel import ThreadsPanel
from studio.run.trace_panel import TracePanel

__all__ = ["ChannelsPanel", "CheckpointTreeModel", "DiffPanel", "EventsPanel", "HistoryPanel", "InterruptPanel",
           "RunInputPanel", "ThreadsPanel", "TracePanel", "checkpoint_forest"]  # fmt: skip
