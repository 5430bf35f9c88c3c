"""The superstep trace as an item model: engine trace events in, rows out, built as they arrive.

Rows only, no widget per row, and lazily: a batch of events adds one top-level row per root
superstep in one insert, and keeps the step's events; the rows under a step (plan, writes,
barrier...) are made only when the view first asks for them (the step is expanded, or a test
reads the texts). So a run of thousands of supersteps costs little more than its step rows.
The inner supersteps of a subgraph or an agent (events whose `ns` is the task's namespace) nest
under the planned task that ran them; `scopes` lists them so the view can step into one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QStandardItem, QStandardItemModel

from engine.constants import ERROR, INTERRUPT, NS_END, RETURN, TASKS
from engine.pregel import trace
from engine.pregel.trace_format import short_version
from studio.i18n import QT_TRANSLATE_NOOP, translate
from studio.plain import plain_tip
from studio.run.user_frames import user_frames, user_traceback
from studio.run.widgets import show, shown_or_dash

RED, ORANGE, PURPLE, GREY = "#C62828", "#B45F06", "#6A1B9A", "#5F6B7A"
BRANCH = "branch:to:"


ROW_ROLE = Qt.ItemDataRole.UserRole + 1


class Row:
    """One line of the trace. Its Qt items are made only when it is shown (`item`), its
    children's only when it is expanded (`built`)."""

    __slots__ = ("label", "detail", "color", "bold", "parent", "children", "tip", "pending", "item", "detail_item",
                 "built", "unfolds")  # fmt: skip

    def __init__(
        self, parent: Row | None, label: str, detail: str = "", color: str | None = None
    ) -> None:
        self.label, self.detail, self.color, self.bold = label, detail, color, False
        self.parent, self.children, self.tip = parent, [], ""
        self.pending: list | None = None
        """Events whose rows are not made yet (a root step's, until it is expanded or read)."""
        self.item: QStandardItem | None = None
        self.detail_item: QStandardItem | None = None
        self.built = False
        self.unfolds = False
        """Expanded with its step when the step is shown: a plan, a write, a retry, a barrier
        (the panel reads this, not the label, which is in the user's language)."""


def ns_label(ns: tuple[str, ...]) -> str:
    """`agent › model`: the node names of a namespace, without task ids."""
    return " › ".join(part.split(NS_END)[0] for part in ns)


def is_hook(name: str) -> bool:
    """A middleware hook node inside an agent: `<Middleware>.<hook>`."""
    return "." in name and not name.startswith("__")


def clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_write(channel: str, value: Any) -> tuple[str, str]:
    """(label, detail) of one write, in the words of the API that made it."""
    from engine.types import Send  # loaded with the run's engine, not with the window

    if channel.startswith(BRANCH):
        return "goto", channel[len(BRANCH) :]
    if channel == TASKS and isinstance(value, Send):
        return f"Send → {value.node}", show(value.arg)
    if channel == RETURN:
        return "return", show(value)
    return channel, show(value)


class TraceModel:
    """The trace's rows (plain Python) and the QStandardItemModel `qt` that shows them. A Qt
    model of its own (no Python overrides) because the view calls a model back for every row it
    lays out or paints, and while the run's worker holds the GIL each call back into Python waits
    for it: a Python model made the GUI stall for hundreds of milliseconds during a run."""

    COLUMNS = (QT_TRANSLATE_NOOP("headers", "Superstep"), QT_TRANSLATE_NOOP("headers", "Detail"))

    def __init__(self) -> None:
        self.qt = QStandardItemModel(0, 2)
        self.qt.setHorizontalHeaderLabels([translate("headers", c) for c in self.COLUMNS])
        self.top: list[Row] = []
        self._steps: dict[tuple, Row] = {}
        self._tasks: dict[str, Row] = {}
        """task id -> its row in a plan: where the graph it ran nests its supersteps."""
        self._inputs: dict[str, Any] = {}
        """task id -> its input, shown again under the task's failure (a Send fan-out plans
        several tasks of one node: which of them raised is told by what it was given)."""
        self._written: dict[tuple, list[tuple[str, tuple[str, ...]]]] = {}
        """(ns, step) -> (task, channels) of each task's writes (saved as pending writes)."""
        self.scopes: dict[tuple[str, ...], Row] = {}
        """Each inner graph run seen: its namespace -> the root step row it happened in."""
        self._scope_rows: dict[tuple[str, ...], Row] = {}
        """namespace -> the planned task row its supersteps nest under (once made)."""
        self._owner: dict[str, Row] = {}
        """root task id -> its root step row (where the events of the graphs it ran are kept)."""
        self.barriers: dict[tuple[str, ...], dict[str, tuple[Any, Any]]] = {}
        """ns -> channel -> (value, version) as that graph's barriers left them."""
        self.last_step: Row | None = None
        self._fresh: list[Row] = []
        self._bold = QFont()
        self._bold.setBold(True)

    # ------------------------------------------------------------------ building

    def clear(self) -> None:
        self.qt.removeRows(0, self.qt.rowCount())
        for table in (self.top, self._steps, self._tasks, self._inputs, self._written, self.scopes, self._scope_rows,
                      self._owner, self.barriers, self._fresh):  # fmt: skip
            table.clear()
        self.last_step = None

    def _add(
        self,
        parent: Row | None,
        label: str,
        detail: str = "",
        color: str | None = None,
        tip: str = "",
    ) -> Row:
        """A new row at the end of `parent` (None: top level, shown with the rest of the batch)."""
        row = Row(parent, label, detail, color)
        row.tip = tip  # before its items are made: they take it as their tooltip
        if parent is None:
            self._fresh.append(row)
            return row
        parent.children.append(row)
        if parent.built:
            parent.item.appendRow(self._items(row))
        elif parent.item is not None and parent.item.rowCount() == 0:
            parent.item.appendRow(QStandardItem("…"))  # an arrow to expand; the rows come then
        return row

    def _items(self, row: Row) -> list[QStandardItem]:
        label, detail = QStandardItem(row.label), QStandardItem(row.detail)
        # the whole text in the tooltips: a narrow dock elides both columns
        more = "\n".join(part for part in (row.detail, row.tip) if part)
        label.setToolTip(plain_tip(f"{row.label}\n{more}" if more else row.label))
        if more:
            detail.setToolTip(plain_tip(more))
        for item in (label, detail):
            item.setEditable(False)
            if row.color:
                item.setForeground(QBrush(QColor(row.color)))
        if row.bold:
            label.setFont(self._bold)
        label.setData(row, ROW_ROLE)
        row.item, row.detail_item = label, detail
        if row.children or row.pending is not None:
            label.appendRow(QStandardItem("…"))
        return [label, detail]

    def build(self, row: Row | None) -> None:
        """Make the Qt items of `row`'s children (on expand)."""
        if row is None or row.built:
            return
        self.grow(row)
        if row.item is None:
            return
        row.item.removeRows(0, row.item.rowCount())
        row.built = True
        for child in row.children:
            row.item.appendRow(self._items(child))

    def show(self, row: Row) -> QModelIndex:
        """Build the rows down to `row` (its ancestors expanded); its index."""
        chain = []
        up = row.parent
        while up is not None:
            chain.append(up)
            up = up.parent
        for owner in reversed(chain):
            self.build(owner)
        return self.index_of(row)

    def _set_detail(self, row: Row, text: str) -> None:
        row.detail = text
        if row.detail_item is not None:
            row.detail_item.setText(text)

    def _flush(self) -> None:
        """Show the top-level rows made by this batch."""
        fresh, self._fresh = self._fresh, []
        root = self.qt.invisibleRootItem()
        for row in fresh:
            root.appendRow(self._items(row))
        self.top.extend(fresh)

    def note(self, label: str, detail: str, color: str | None = PURPLE) -> Row:
        """A row of the studio's own between steps (an interrupt answered, a fork)."""
        row = self._add(None, label, detail, color)
        row.bold = True
        self._flush()
        return row

    def _step(self, ns: tuple[str, ...], step: int) -> Row:
        key = (ns, step)
        row = self._steps.get(key)
        if row is None:
            parent = self._tasks.get(ns[-1].rsplit(NS_END, 1)[-1]) if ns else None
            where = (
                (translate("run.trace_model", " in {where}")).format(where=ns_label(ns))
                if ns
                else ""
            )
            row = self._add(
                parent,
                (translate("run.trace_model", "Step {step}{where}")).format(step=step, where=where),
            )
            row.bold = True
            self._steps[key] = row
            if ns and parent is not None:
                self._scope_rows.setdefault(ns, parent)
        return row

    def add_events(self, events: list[Any]) -> Row | None:
        """Read one batch of events; returns the last root step row it touched."""
        last = None
        for event in events:
            if isinstance(event, trace.TaskStarted):
                continue  # the plan and the outcome say it all
            if isinstance(event, trace.BarrierApplied):
                seen = self.barriers.setdefault(event.ns, {})
                for c in event.changes:
                    seen[c.channel] = (c.new_value, c.new_version)
            if event.ns:
                root = self._owner.get(event.ns[0].rsplit(NS_END, 1)[-1])
                if root is not None and isinstance(event, trace.StepPlanned):
                    self.scopes.setdefault(event.ns, root)
            else:
                root = last = self._root_step(event)
            if root is not None and root.pending is not None:
                root.pending.append(event)
            else:
                self._read(event)
        self._flush()
        if last is not None:
            self.last_step = last
        return last

    def _root_step(self, event: Any) -> Row:
        """The root superstep's row, new rows keeping their events for later; its summary now."""
        fresh = ((), event.step) not in self._steps
        row = self._step((), event.step)
        if fresh:
            row.pending = []
        if isinstance(event, trace.StepPlanned):
            names = ", ".join(t.name for t in event.tasks) or translate(
                "run.trace_model", "nothing"
            )
            self._set_detail(row, translate("run.trace_model", "runs {names}").format(names=names))
            for task in event.tasks:
                self._owner[task.id] = row
        elif isinstance(event, trace.CheckpointSaved) and not row.detail:
            self._set_detail(
                row, translate("run.trace_model", "{source} checkpoint").format(source=event.source)
            )
        return row

    def grow(self, row: Row) -> None:
        """Make the rows of the events `row` keeps."""
        if row.pending is None:
            return
        events, row.pending = row.pending, None
        for event in events:
            self._read(event)

    def scope_row(self, ns: tuple[str, ...]) -> Row | None:
        """The planned task row an inner graph's supersteps nest under."""
        root = self.scopes.get(ns)
        if root is not None:
            self.grow(root)
        return self._scope_rows.get(ns)

    def _read(self, event: Any) -> None:
        step = self._step(event.ns, event.step)
        if isinstance(event, trace.StepPlanned):
            self._plan(step, event)
        elif isinstance(event, trace.TaskRetried):
            self._add(step, translate("run.trace_model", "{name} attempt {attempt} failed").format(name=event.name, attempt=event.attempt),
                      translate("run.trace_model", "{name__}: {error} — retrying in {delay:.2f} s").format(name__=type(event.error).__name__, error=event.error, delay=event.delay),
                      ORANGE).unfolds = True  # fmt: skip
        elif isinstance(event, trace.TaskFinished):
            self._finished(step, event)
        elif isinstance(event, trace.BarrierApplied):
            self._barrier(step, event)
        elif isinstance(event, trace.CheckpointSaved):
            self._add(
                step,
                translate("run.trace_model", "Checkpoint saved"),
                f"{event.source} · {event.checkpoint_id}",
            )
            if not step.detail:
                self._set_detail(
                    step,
                    translate("run.trace_model", "{source} checkpoint").format(source=event.source),
                )

    def _plan(self, step: Row, event: trace.StepPlanned) -> None:
        names = ", ".join(t.name for t in event.tasks) or translate("run.trace_model", "nothing")
        self._set_detail(step, translate("run.trace_model", "runs {names}").format(names=names))
        plan = self._add(
            step,
            translate("run.trace_model", "Plan"),
            translate("run.trace_model", "{len} task(s): {names}").format(
                len=len(event.tasks), names=names
            ),
        )
        plan.unfolds = True
        for task in event.tasks:
            if task.trigger_versions:
                woke = ", ".join(
                    f"{ch} @ v{short_version(v)}" for ch, v in task.trigger_versions.items()
                )
                row = self._add(
                    plan,
                    task.name,
                    translate("run.trace_model", "woken by {woke}").format(woke=woke),
                )
            else:  # a PUSH task: its input is the packet's payload
                row = self._add(
                    plan,
                    task.name,
                    translate("run.trace_model", "Send packet: {show}").format(
                        show=show(task.input, 120)
                    ),
                    PURPLE,
                )
                self._add(row, "payload", show(task.input, 400), PURPLE)
            if is_hook(task.name):
                row.color = PURPLE
                self._add(row, "saw", show(task.input, 400), GREY)
            row.tip = f"task {task.id}\ninput: {show(task.input, 400)}"
            self._tasks[task.id] = row
            self._inputs[task.id] = task.input

    def _finished(self, step: Row, event: trace.TaskFinished) -> None:
        key = (event.ns, event.step)
        cached = translate("run.trace_model", " (cached)") if event.cached else ""
        hook = translate("run.trace_model", " (middleware hook)") if is_hook(event.name) else ""
        if event.error is not None:
            self._raised(step, event)
            return
        if event.interrupts:
            values = "; ".join(show(getattr(i, "value", i)) for i in event.interrupts)
            row = self._add(
                step,
                translate("run.trace_model", "{name} interrupted").format(name=event.name),
                translate("run.trace_model", "interrupt raised: {values}").format(values=values),
                ORANGE,
            )
            for i in event.interrupts:
                self._add(
                    row,
                    f"interrupt {str(getattr(i, 'id', ''))[:8]}",
                    show(getattr(i, "value", i), 400),
                    ORANGE,
                )
            return
        writes = [(ch, v) for ch, v in event.writes if ch not in (INTERRUPT, ERROR)]
        self._written.setdefault(key, []).append((event.name, tuple(ch for ch, _ in writes)))
        shown = [describe_write(ch, v) for ch, v in writes]
        text = ", ".join(f"{label} {clip(detail)}" if label == "goto" or label.startswith("Send")
                         else f"{label} = {clip(detail)}" for label, detail in shown) or translate("run.trace_model", "no writes")  # fmt: skip
        row = self._add(
            step,
            translate("run.trace_model", "{name} wrote{cached}{hook}").format(
                name=event.name, cached=cached, hook=hook
            ),
            text,
            GREY if event.cached else None,
        )
        row.unfolds = True
        if event.cached:
            row.tip = translate(
                "run.trace_model", "read from the node's cache (CachePolicy): the node did not run"
            )
        for (label, detail), (channel, _v) in zip(shown, writes, strict=True):
            color = PURPLE if channel == TASKS or channel.startswith(BRANCH) else None
            self._add(row, label, detail, color)

    def _raised(self, step: Row, event: trace.TaskFinished) -> None:
        """The failure, open with its step: the input the task was given, then each frame of
        the developer's code it raised through (the whole traceback in its tooltip)."""
        error = event.error
        row = self._add(step, translate("run.trace_model", "{name} raised").format(name=event.name),
                        f"{type(error).__name__}: {error}", RED, tip=user_traceback(error))  # fmt: skip
        row.unfolds = True
        if event.task_id in self._inputs:
            self._add(row, translate("run.trace_model", "input"),
                      show(self._inputs[event.task_id], 400), RED)  # fmt: skip
        for frame in user_frames(error):
            self._add(row, f"{Path(frame.filename).name}:{frame.lineno}",
                      f"in {frame.name}: {(frame.line or '').strip()}", RED, tip=frame.filename)  # fmt: skip

    def _barrier(self, step: Row, event: trace.BarrierApplied) -> None:
        written = self._written.pop((event.ns, event.step), [])
        if written:
            saved = self._add(
                step,
                translate("run.trace_model", "Pending writes saved"),
                translate("run.trace_model", "{len} task(s), before the checkpoint").format(
                    len=len(written)
                ),
            )
            for name, channels in written:
                self._add(
                    saved, name, ", ".join(channels) or translate("run.trace_model", "no writes")
                )
        barrier = self._add(
            step,
            translate("run.trace_model", "Barrier"),
            translate("run.trace_model", "{len} channel(s) updated").format(len=len(event.changes)),
        )
        barrier.unfolds = True
        for c in event.changes:
            old, new = shown_or_dash(c.old_value, 60), shown_or_dash(c.new_value, 60)
            self._add(barrier, c.channel, translate("run.trace_model", "{old} → {new}   (v{short_version} → v{short_version2})").format(old=old, new=new, short_version=short_version(c.old_version), short_version2=short_version(c.new_version)))  # fmt: skip

    # ------------------------------------------------------------------ reading

    def row_of(self, index: QModelIndex) -> Row | None:
        if not index.isValid():
            return None
        item = self.qt.itemFromIndex(index.siblingAtColumn(0))
        return item.data(ROW_ROLE) if item is not None else None

    def index_of(self, row: Row | None) -> QModelIndex:
        return row.item.index() if row is not None and row.item is not None else QModelIndex()

    def texts(self, root: Row | None = None) -> list[str]:
        """Every row under `root` (None: all) as `label: detail`, depth first."""
        out: list[str] = []
        if root is not None:
            self.grow(root)
        stack = [(r, 0) for r in reversed(root.children if root is not None else self.top)]
        while stack:
            row, depth = stack.pop()
            self.grow(row)
            out.append("  " * depth + f"{row.label}: {row.detail}")
            stack.extend((c, depth + 1) for c in reversed(row.children))
        return out
