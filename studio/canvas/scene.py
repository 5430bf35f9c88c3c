"""GraphScene: projects the document into items and turns finished gestures into intents.

It reads the document and listens to its `changed` signal; it never changes it. Items are
diffed by object identity of their spec elements, so an edit touching one node repaints one
node (and its edges), even in a graph of thousands.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from studio.canvas.edge_layer import EdgeLayer
from studio.canvas.items import EdgeItem, NodeItem, NoteItem, TerminalItem
from studio.canvas.items.edge_item import LANE, LOOP_REACH, curve
from studio.canvas.items.node_item import PortedItem
from studio.canvas.looks import END, START, edge_looks, node_look
from studio.document import GraphDocument

GRID = 20.0
NODE_FIELDS = {"nodes", "agents", "subgraphs", "breakpoints"}
EDGE_FIELDS = {"nodes", "edges", "conditional_edges", "entry", "finish"}
PROJECTED = (NodeItem, NoteItem, EdgeItem, TerminalItem)
"""The items drawn from the document (the overview draws these; other items paint themselves)."""
NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents


LIVE_DETOURS = 300
"""Up to this many edges, each move of a dragged card routes again the other edges it lies
across (or left); a bigger graph does it when the card rests REST_MS, so that its drag stays as
fast as when only the card's own edges followed (bench/canvas.py's drag frame)."""
REST_MS = 60


def _inside(card: QRectF) -> QRectF:
    """The card away from its border: a curve that meets it crosses the card (a port on the
    border is not a crossing)."""
    return card.adjusted(6, 6, -6, -6)


def _crossed(points: list[QPointF], card: QRectF) -> bool:
    """Whether a curve (`points` along it) runs inside the card."""
    inner = _inside(card)
    return any(inner.contains(p) for p in points)


class GraphScene(QGraphicsScene):
    moved = Signal(object)
    """{id: (x, y)} of the nodes and notes a drag moved (snapped when snapping is on)."""
    connect_requested = Signal(str, str, bool)
    """source, target, join (add the source to the edge already entering target)."""
    reconnect_requested = Signal(str, str)
    """edge element id, new target."""
    route_requested = Signal(str, str)
    """source, target: add a conditional route (a drag from the router handle, or Shift-drag)."""
    retarget_requested = Signal(str, int, str)
    """conditional edge id, route index, new target: the end of a dashed route was dragged."""
    activated = Signal(str)
    """A node or note was double-clicked."""

    def __init__(self, document: GraphDocument, read_only: bool = False) -> None:
        super().__init__()
        self.document = document
        self.read_only = read_only
        self.snap = True
        self.nodes: dict[str, NodeItem] = {}
        self.notes: dict[str, NoteItem] = {}
        self.edges: dict[str, EdgeItem] = {}
        self.terminals = {START: TerminalItem(START), END: TerminalItem(END)}
        self._sources: dict[str, Any] = {}
        """node id -> (node spec, agent spec): what its item was last drawn from."""
        self._touching: dict[str, set[str]] = {}
        """node id -> keys of the edges that end at it, to redraw only those when it moves."""
        self._lanes: dict[str, tuple[int, int]] = {}
        """edge key -> (place, how many) among the edges between the same ends."""
        self._dragged: dict[str, QRectF] = {}
        """While the mouse button is down: the selected cards, each where its edges and those
        it lay across were last routed."""
        self._resting = QTimer(self)
        self._resting.setSingleShot(True)
        self._resting.setInterval(REST_MS)
        self._resting.timeout.connect(self._rested)
        self.picture_version = 0
        """Moves whenever what the projected items look like may have changed (the view's
        zoomed-out overview redraws its picture when it does)."""
        self.items_paint = True
        """False while a view draws the overview: projected items then have no contents."""
        self.zooming = False
        """True during a zoom gesture (see set_zooming)."""
        self.text_floor = 0.0
        """Screen pixels no item's text is painted below (lecture mode; canvas/text_floor.py)."""
        self._zoom_cached: dict[int, NodeItem] = {}
        self._zoom_covered = QRectF()
        self._zoom_at = 1.0
        self.edge_layer = EdgeLayer(self)
        """Draws every edge (edge items never paint: they are there to be hit and selected)."""
        super().addItem(self.edge_layer)
        for item in self.terminals.values():
            self.addItem(item)
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        document.changed.connect(self._on_changed)
        document.reset.connect(self.rebuild)
        self.rebuild()

    # -------------------------------------------------------------- projection

    def rebuild(self) -> None:
        for table in (self.nodes, self.notes, self.edges):
            for item in table.values():
                self.removeItem(item)
            table.clear()
        self._sources.clear()
        self._touching.clear()
        self._lanes.clear()
        self._on_changed(frozenset({*NODE_FIELDS, *EDGE_FIELDS, "view"}))

    def _on_changed(self, fields: frozenset[str]) -> None:
        moved: set[str] = set()
        if fields & NODE_FIELDS:
            moved |= self._sync_nodes()
        if "view" in fields:
            self._sync_notes()
        moved |= self._place_terminals()
        if fields & EDGE_FIELDS or fields & NODE_FIELDS:
            self._sync_edges(moved)
        bounds = self.itemsBoundingRect().adjusted(-400, -300, 400, 300)
        self.setSceneRect(bounds.united(QRectF(-200, -200, 1200, 900)))
        self.touch()

    # -------------------------------------------------------------- the zoomed-out overview

    def touch(self, edges: list[EdgeItem] | None = None, old: QRectF | None = None) -> None:
        """The projected items changed how they look: the overview picture is out of date, and
        the edge layer (only `edges`, which were at `old`, when given)."""
        self.picture_version += 1
        self.edge_layer.invalidate(edges, old)
        if not self.items_paint:
            self.update()  # items without contents send no updates of their own

    def projected(self) -> list[QGraphicsItem]:
        return [
            *self.notes.values(),
            *self.edges.values(),
            *self.nodes.values(),
            *self.terminals.values(),
        ]

    def set_items_paint(self, on: bool) -> None:
        """Let the projected items paint (True) or not (False: a view draws the overview)."""
        if on == self.items_paint:
            return
        self.items_paint = on
        for item in self.projected():
            item.setFlag(NO_CONTENTS, not on or isinstance(item, EdgeItem))
        self.edge_layer.setFlag(NO_CONTENTS, not on)
        self.update()

    def set_text_floor(self, px: float) -> None:
        if px != self.text_floor:
            self.text_floor = px
            for item in [*self.nodes.values(), *self.notes.values(), *self.terminals.values()]:
                item.update()  # their cached pictures hold the old text
            self.edge_layer.update()

    def set_zooming(self, on: bool, zoom: float = 1.0, near: QRectF | None = None) -> None:
        """During a zoom gesture the cards near `near` (the visible area and a margin; see
        zoom_near) draw a picture made once at the zoom the gesture started from, scaled (a
        device-coordinate cache repaints every card in Python at every step), and the edge
        layer strokes its curves without antialiasing and without a cache; when it settles, all
        is sharp again."""
        if on == self.zooming:
            return
        self.zooming = on
        self.edge_layer.set_zooming(on)
        if on:
            self._zoom_at = zoom
            self.zoom_near(near if near is not None else self.itemsBoundingRect())
            return
        for item in self._zoom_cached.values():
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._zoom_cached = {}
        self._zoom_covered = QRectF()

    def zoom_near(self, area: QRectF) -> None:
        """A zoom gesture reaches `area`: its cards join the scaled pictures (zooming out far
        enough calls this again for the ring that came into view)."""
        if not self.zooming or self._zoom_covered.contains(area):
            return
        self._zoom_covered = self._zoom_covered.united(area)
        zoom = self._zoom_at
        for item in self.items(
            area, Qt.ItemSelectionMode.IntersectsItemBoundingRect
        ):  # no shape() calls
            if isinstance(item, NodeItem) and id(item) not in self._zoom_cached:
                self._zoom_cached[id(item)] = item
                w, h = item.boundingRect().size().toTuple()
                size = QSize(max(1, math.ceil(w * zoom)), max(1, math.ceil(h * zoom)))
                item.setCacheMode(QGraphicsItem.CacheMode.ItemCoordinateCache, size)

    def addItem(self, item: QGraphicsItem) -> None:  # noqa: N802 (Qt's name)
        if isinstance(item, PROJECTED):
            item.setFlag(NO_CONTENTS, not self.items_paint or isinstance(item, EdgeItem))
            self.picture_version += 1
        super().addItem(item)

    def removeItem(self, item: QGraphicsItem) -> None:  # noqa: N802 (Qt's name)
        if isinstance(item, PROJECTED):
            self.touch()
        super().removeItem(item)

    def itemsBoundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        self.edge_layer.sync(force=True)  # edges may have been routed since the last touch
        return super().itemsBoundingRect()

    def render(self, *args, **kwargs) -> None:
        """Exports and snapshots draw the items themselves, whatever the view shows."""
        self.edge_layer.sync()
        painting = self.items_paint
        self.set_items_paint(True)
        try:
            super().render(*args, **kwargs)
        finally:
            self.set_items_paint(painting)

    def _sync_nodes(self) -> set[str]:
        spec = self.document.spec
        seen, moved = set(), set()
        for i, node in enumerate(spec.nodes):
            seen.add(node.id)
            agent = spec.agent(node.agent) if node.kind == "agent" else None
            breaks = (node.id in spec.breakpoints.before, node.id in spec.breakpoints.after)
            source = (node, agent, breaks)
            item = self.nodes.get(node.id)
            old = self._sources.get(node.id)
            if (
                item is not None
                and old is not None
                and old[0] is node
                and old[1] is agent
                and old[2] == breaks
            ):
                continue
            if item is None:
                item = NodeItem(node.id, node_look(spec, node))
                item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, not self.read_only)
                self.nodes[node.id] = item
                self.addItem(item)
            else:
                item.set_look(node_look(spec, node))
            pos = node.position
            target = (
                QPointF(pos.x, pos.y) if pos else QPointF(200 + (i % 6) * 240, 100 + (i // 6) * 160)
            )
            if item.pos() != target:
                item.setPos(target)
            self._sources[node.id] = source
            moved.add(node.id)
        for gone in set(self.nodes) - seen:
            self.removeItem(self.nodes.pop(gone))
            self._sources.pop(gone, None)
        return moved

    def _sync_notes(self) -> None:
        notes = {n.id: n for n in self.document.spec.view.notes}
        for gone in set(self.notes) - set(notes):
            self.removeItem(self.notes.pop(gone))
        for note in notes.values():
            item = self.notes.get(note.id)
            if item is None:
                item = self.notes[note.id] = NoteItem(note.id, note.text)
                item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable, not self.read_only)
                self.addItem(item)
            item.set_text(note.text)
            item.setPos(note.position.x, note.position.y)

    def _place_terminals(self) -> set[str]:
        """START above the topmost node, centred over the entry nodes; END below the lowest,
        centred under the finishing ones (the spec has no place for them: they follow the
        nodes). Their height comes from all the nodes, so drawing the first edge to END does
        not pull END up between the cards."""
        spec = self.document.spec
        moved = set()
        every = [i.sceneBoundingRect() for i in self.nodes.values()]
        for tid, names in ((START, spec.entry), (END, spec.finish)):
            items = [self.nodes[n] for n in names if n in self.nodes] or list(self.nodes.values())
            if not items:
                pos = QPointF(200, 0 if tid == START else 300)
            else:
                rects = [i.sceneBoundingRect() for i in items]
                x = sum(r.center().x() for r in rects) / len(rects) - 45
                y = (
                    min(r.top() for r in every) - 90
                    if tid == START
                    else max(r.bottom() for r in every) + 60
                )
                pos = QPointF(round(x), round(y))
            if self.terminals[tid].pos() != pos:
                self.terminals[tid].setPos(pos)
                moved.add(tid)
        return moved

    def _sync_edges(self, moved: set[str]) -> None:
        looks = {look.key: look for look in edge_looks(self.document.spec, set(self.nodes))}
        # an edited edge gets a new item: it stays selected (the inspector keeps showing it, and
        # the field being edited keeps the focus), with one selectionChanged if anything changed
        chosen = {i.element_id for i in self.edges.values() if i.isSelected()}
        blocked = self.blockSignals(True)
        try:
            for key in set(self.edges) - set(looks):
                self.removeItem(self.edges.pop(key))
            fresh = set()
            for key, look in looks.items():
                item = self.edges.get(key)
                if item is not None and item.look == look:
                    continue
                if item is not None:
                    self.removeItem(item)
                item = self.edges[key] = EdgeItem(look)
                item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
                self.addItem(item)
                item.setSelected(look.element_id in chosen)
                fresh.add(key)
        finally:
            self.blockSignals(blocked)
        if chosen != {i.element_id for i in self.edges.values() if i.isSelected()}:
            self.selectionChanged.emit()
        self._touching = {}
        for key, item in self.edges.items():
            for end in (*item.look.sources, item.look.target):
                self._touching.setdefault(end, set()).add(key)
        relaned = self._assign_lanes()
        # a moved card may now lie in another edge's way, or no longer: all are routed again
        routed = fresh | relaned | (set(self.edges) if moved else set())
        for key in routed:
            self._route(self.edges[key])
        self._place_labels([self.edges[k] for k in routed])

    def _assign_lanes(self) -> set[str]:
        """Edges between the same ends (a goto and a Send to one node, two routes back to the
        same card) each get a lane: (place, how many). Returns the keys whose lane changed."""
        groups: dict[tuple, list[str]] = {}
        for key, item in self.edges.items():
            groups.setdefault((item.look.sources, item.look.target), []).append(key)
        changed = set()
        for keys in groups.values():
            for place, key in enumerate(keys):
                lane = (place, len(keys))
                if self._lanes.get(key) != lane:
                    self._lanes[key] = lane
                    changed.add(key)
        for gone in set(self._lanes) - set(self.edges):
            del self._lanes[gone]
        return changed

    def _place_labels(self, routed: list[EdgeItem]) -> list[EdgeItem]:
        """Lay out again the labels of the edges leaving the nodes the `routed` edges leave (a
        goto and a Send from one node, two routes to neighbours): each clear of those before
        it from the same node. Returns the edges whose label was laid out."""
        starts = {edge.look.sources[0] for edge in routed}
        groups: dict[str, list[EdgeItem]] = {}
        for edge in self.edges.values():
            if edge.look.label and edge.look.sources[0] in starts:
                groups.setdefault(edge.look.sources[0], []).append(edge)
        for group in groups.values():
            taken: list[QRectF] = []
            for edge in group:
                taken.append(edge.place_label(taken))
        return [edge for group in groups.values() for edge in group]

    def ported(self, node_id: str) -> PortedItem | None:
        return self.nodes.get(node_id) or self.terminals.get(node_id)

    def _route(self, edge: EdgeItem) -> None:
        sources = [self.ported(s).port_pos("out") for s in edge.look.sources]
        target = self.ported(edge.look.target)
        lane = self._lanes.get(edge.look.key, (0, 1))
        edge.set_ends(sources, target.port_pos("in"), lane, self._beside(edge, lane))

    def _beside(self, edge: EdgeItem, lane: tuple[int, int] | None = None) -> float | None:
        """The x the edge runs along around cards (see EdgeItem.set_ends), or None; `lane`: its
        place among the edges between the same ends, when the caller has it."""
        lane = lane or self._lanes.get(edge.look.key, (0, 1))
        if edge.look.sources == (edge.look.target,):  # back to itself: a loop beside the card
            target = self.ported(edge.look.target)
            return target.mapToScene(QPointF(target.size()[0], 0)).x() + LOOP_REACH + lane[0] * LANE
        if len(edge.look.sources) == 1:
            return self._detour(edge.look.sources[0], edge.look.target, lane[0])
        return None

    def _straight(self, source: str, target: str) -> QPainterPath:
        """The straight curve from `source`'s output port to `target`'s input port."""
        return curve(self.ported(source).port_pos("out"), self.ported(target).port_pos("in"))

    def _detour(self, source: str, target: str, place: int) -> float | None:
        """The x an edge runs along to go around the cards its straight curve would cross (a
        route to END past the tool node; a loop back up from a tool node to its model node,
        which crosses its own ends), or None when none is in the way. Edges back up go left of
        the cards, edges down right; one around more cards runs further out, so nested detours
        do not lie on each other."""
        start, end = self.ported(source).port_pos("out"), self.ported(target).port_pos("in")
        back = end.y() < start.y()
        ends = [self.ported(n).sceneBoundingRect() for n in (source, target)]
        path = curve(start, end)
        band = path.boundingRect().adjusted(-1, -1, 1, 1)  # a straight line has no area
        points = None
        around = []
        for item in self.items(band, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
            if not self._is_card(item):
                continue
            card = item.sceneBoundingRect()
            if not card.intersects(band) or (not back and card in ends):
                continue
            if points is None:
                points = [path.pointAtPercent(i / 40) for i in range(41)]
            if _crossed(points, card):
                around.append(card)
        if not around:
            return None
        reach = LOOP_REACH * (len(around) - (1 if back else 0)) + place * LANE
        if back:
            return min(r.left() for r in around) - reach
        return max(r.right() for r in around) + reach

    # -------------------------------------------------------------- gestures

    def _is_card(self, item: QGraphicsItem) -> bool:
        """A node's card or START/END: what edges go around."""
        node_id = getattr(item, "node_id", None)
        return isinstance(item, PortedItem) and (
            self.nodes.get(node_id) is item or self.terminals.get(node_id) is item
        )

    def _in_the_way(self, node_id: str, card: QRectF) -> set[str]:
        """The other cards' edges a card dragged from where it was to `card` now lies in the
        way of, or no longer does (their detour is not what it was). Only edges near either
        place are asked (the scene's index), so a drag stays cheap on a big graph."""
        was, self._dragged[node_id] = self._dragged[node_id], card
        own = self._touching.get(node_id, set())
        insides = (_inside(was), _inside(card))
        found: set[str] = set()
        for place in (was, card):
            for item in self.items(place, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
                key = getattr(getattr(item, "look", None), "key", None)
                if key in own or key in found or self.edges.get(key) is not item:
                    continue
                sources, target = item.look.sources, item.look.target
                if len(sources) != 1 or sources[0] == target:  # joins, loops: no detours
                    continue
                # only an edge whose straight curve the card meets, or met, may change (Qt's
                # test of the curve's area: never misses a crossing, and costs no sampling)
                path = self._straight(sources[0], target)
                if any(map(path.intersects, insides)) and self._beside(item) != item.beside:
                    found.add(key)
        return found

    def item_dragged(self, item: QGraphicsItem) -> None:
        """An item moved under the mouse: redraw its edges now, and the other edges a dragged
        card now lies across or no longer does (at once in a graph of up to LIVE_DETOURS edges,
        else when the card rests: a big graph's drag costs each move only the card's edges);
        the edit comes on release."""
        node_id = getattr(item, "node_id", None)
        keys = set(self._touching.get(node_id, ()))
        if node_id in self._dragged and self.nodes.get(node_id) is item:
            if len(self.edges) <= LIVE_DETOURS:
                keys |= self._in_the_way(node_id, item.sceneBoundingRect())
            else:
                self._resting.start()
        self._redraw(keys)

    def _rested(self) -> None:
        keys: set[str] = set()
        for node_id in list(self._dragged):
            if (card := self.nodes.get(node_id)) is not None:
                keys |= self._in_the_way(node_id, card.sceneBoundingRect())
        self._redraw(keys)

    def _redraw(self, keys: set[str]) -> None:
        """Route the edges `keys` again, and lay out the labels beside them."""
        moved, old = [], QRectF()
        for key in keys:
            if key in self.edges:
                edge = self.edges[key]
                old = old.united(edge.boundingRect())
                self._route(edge)
                moved.append(edge)
        for edge in self._place_labels(moved):  # a neighbour's label may move out of the way
            old = old.united(edge.boundingRect())
            if edge not in moved:
                moved.append(edge)
        self.touch(moved, old)

    def mousePressEvent(self, event) -> None:
        super().mousePressEvent(event)
        # where the items were when the button went down: only those a drag moved get an edit
        # (a click on a card off the grid must not snap it, dirty the file or add an undo entry)
        self._pressed_at = {
            i.node_id: i.pos() for i in self.selectedItems() if isinstance(i, (NodeItem, NoteItem))
        }
        # the cards the mouse may drag, where each last was (`_in_the_way`)
        self._dragged = {
            i.node_id: i.sceneBoundingRect() for i in self.selectedItems() if self._is_card(i)
        }

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        pressed, self._pressed_at = getattr(self, "_pressed_at", {}), {}
        self._dragged = {}
        self._resting.stop()
        spec = self.document.spec
        wanted: dict[str, tuple[float, float]] = {}
        saved = {n.id: n.position for n in spec.nodes}
        saved.update({n.id: n.position for n in spec.view.notes})
        for item in self.selectedItems():
            if isinstance(item, (NodeItem, NoteItem)):
                pos = item.pos()
                if pressed.get(item.node_id) == pos:
                    continue
                x, y = pos.x(), pos.y()
                if self.snap:
                    x, y = round(x / GRID) * GRID, round(y / GRID) * GRID
                old = saved.get(item.node_id)
                if old is None or (old.x, old.y) != (x, y):
                    wanted[item.node_id] = (x, y)
        if wanted and not self.read_only:
            self.moved.emit(wanted)

    def mouseDoubleClickEvent(self, event) -> None:
        item = self.itemAt(event.scenePos(), self.views()[0].transform()) if self.views() else None
        if isinstance(item, (NodeItem, NoteItem)):
            self.activated.emit(item.node_id)
            return
        super().mouseDoubleClickEvent(event)

    # -------------------------------------------------------------- selection and marks

    def selected_ids(self) -> list[str]:
        out = []
        for item in self.selectedItems():
            if isinstance(item, (NodeItem, NoteItem)):
                out.append(item.node_id)
            elif isinstance(item, EdgeItem) and item.element_id not in out:
                out.append(item.element_id)
        return out

    def items_for(self, element_id: str) -> list[QGraphicsItem]:
        """The items drawing an element: a node, note, edge, conditional edge or agent."""
        if element_id in self.nodes:
            return [self.nodes[element_id]]
        if element_id in self.notes:
            return [self.notes[element_id]]
        found = [e for e in self.edges.values() if e.element_id == element_id]
        if not found:  # an agent: the nodes running it
            found = [
                i
                for n, i in self.nodes.items()
                if getattr(self.document.spec.node(n), "agent", None) == element_id
            ]
        return found

    def select_ids(self, ids: list[str]) -> list[QGraphicsItem]:
        self.clearSelection()
        items = [i for e in ids for i in self.items_for(e)]
        for item in items:
            item.setSelected(True)
        return items

    def set_marks(self, findings: list[Any]) -> None:
        """Mark each item a finding names with its worst severity (errors beat warnings)."""
        worst: dict[str, tuple[str, list[str]]] = {}
        for f in findings:
            if f.element_id is None:
                continue
            for item in self.items_for(f.element_id):
                sev, texts = worst.get(id(item), (f.severity, []))
                if f.severity == "error":
                    sev = "error"
                texts.append(f.message)
                worst[id(item)] = (sev, texts)
        for item in [*self.nodes.values(), *self.edges.values()]:
            sev, texts = worst.get(id(item), (None, []))
            if isinstance(item, NodeItem):
                item.set_mark(sev, "\n".join(texts))
            else:
                item.set_mark(sev)
        self.touch()
