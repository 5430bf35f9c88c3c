"""Differential tests: the built-in transformers' projections and user transformers (named
channels, suppression, before_builtins, registration errors) on langgraph and engine."""

from __future__ import annotations

import pytest

from tests.engine.stream.scenarios import chain, event_view, parent_with_child, quiet, thread
from tests.oracle import assert_same

pytestmark = pytest.mark.differential


def test_opt_in_projections_see_only_their_own_level():
    def scenario(b):
        t = b.mod("stream.transformers")
        memory = b.mod("checkpoint.memory").InMemorySaver()
        child = chain(b, "inner")
        graph = parent_with_child(b, child, checkpointer=memory)
        extra = [t.UpdatesTransformer, t.TasksTransformer, t.CheckpointsTransformer]
        run = quiet(
            lambda: graph.stream_events({"items": []}, thread(), version="v3", transformers=extra)
        )
        seen = {}
        for name, item in run.interleave("values", "updates", "tasks", "checkpoints"):
            if name == "checkpoints":
                item = (item["metadata"]["step"], item["values"], item["next"])
            seen.setdefault(name, []).append(item)
        return seen

    seen = assert_same(scenario)
    assert set(seen) == {"values", "updates", "tasks", "checkpoints"}


def test_custom_writer_data_reaches_run_custom_and_the_main_log():
    def scenario(b):
        graph, config = b.graph, b.config
        t = b.mod("stream.transformers")

        def talk(state):
            config.get_stream_writer()({"said": "hi"})
            return {"items": ["talked"]}

        builder = graph.StateGraph(dict)
        builder.add_node("talk", talk)
        builder.add_edge(graph.START, "talk")
        app = builder.compile()
        first = quiet(
            lambda: app.stream_events({}, version="v3", transformers=[t.CustomTransformer])
        )
        second = quiet(
            lambda: app.stream_events({}, version="v3", transformers=[t.CustomTransformer])
        )
        return list(first.custom), [event_view(e) for e in second]

    custom, events = assert_same(scenario)
    assert custom == [{"said": "hi"}]
    assert any(e[1] == "custom" for e in events)


def test_a_user_transformer_forwards_named_pushes_and_can_suppress_events():
    def scenario(b):
        stream = b.stream

        class Counter(stream.StreamTransformer):
            required_stream_modes = ("updates",)

            def __init__(self, scope=()):
                super().__init__(scope)
                self.count = 0
                self.out = stream.StreamChannel("counts")

            def init(self):
                return {"counts": self.out}

            def process(self, event):
                if event["method"] == "updates":
                    self.count += 1
                    self.out.push(self.count)
                    return False  # replaced by the count in the main log
                return True

        graph = chain(b, "a", "b")
        run = quiet(
            lambda: graph.stream_events({"items": []}, version="v3", transformers=[Counter])
        )
        events = [event_view(e) for e in run]
        return events, sorted(run.extensions), hasattr(run, "counts")

    events, keys, native = assert_same(scenario)
    assert [e[2]["data"] for e in events if e[1] == "custom:counts"] == [1, 2]
    assert not native and "counts" in keys


def test_before_builtins_transformers_see_events_first():
    def scenario(b):
        stream = b.stream
        order = []

        def recorder(label, early):
            class Recorder(stream.StreamTransformer):
                before_builtins = early

                def init(self):
                    return {}

                def process(self, event):
                    order.append(label)
                    return True

            return Recorder

        mux_cls = b.mod("stream._mux").StreamMux
        t = b.mod("stream.transformers")
        mux = mux_cls(
            factories=[t.ValuesTransformer, recorder("late", False), recorder("early", True)]
        )
        mux.push(
            {
                "type": "event",
                "method": "values",
                "params": {"namespace": [], "timestamp": 0, "data": {}},
            }
        )
        return order, [type(x).__name__ for x in mux._transformers]

    order, names = assert_same(scenario)
    assert order == ["early", "late"] and names[0] == "Recorder"


def test_registration_errors_name_the_problem():
    def scenario(b):
        stream = b.stream
        mux_cls = b.mod("stream._mux").StreamMux
        t = b.mod("stream.transformers")

        class Clash(stream.StreamTransformer):
            def init(self):
                return {"values": stream.StreamChannel()}

            def process(self, event):
                return True

        class NeedsLoop(stream.StreamTransformer):
            def init(self):
                return {}

            async def aprocess(self, event):
                return True

        class NotADict(stream.StreamTransformer):
            def init(self):
                return ["nope"]

            def process(self, event):
                return True

        errors = []
        for factories in ([t.ValuesTransformer, Clash], [NeedsLoop], [NotADict]):
            try:
                mux_cls(factories=factories)
            except (ValueError, RuntimeError, TypeError) as exc:
                errors.append((type(exc).__name__, str(exc)))
        try:
            mux_cls(transformers=[t.ValuesTransformer(())])._make_child(("x",))
        except RuntimeError as exc:
            errors.append((type(exc).__name__, str(exc)))
        return errors

    assert len(assert_same(scenario)) == 4


def test_channel_subscription_rules_and_tee():
    def scenario(b):
        channel_cls = b.stream.StreamChannel
        outcomes = []
        unbound = channel_cls()
        for attempt in (lambda: iter(unbound), lambda: channel_cls(maxlen=0)):
            try:
                attempt()
            except (TypeError, ValueError) as exc:
                outcomes.append((type(exc).__name__, str(exc)))
        channel = channel_cls()
        channel._bind(is_async=False)
        channel.push("dropped: nobody subscribed yet")
        left, right = channel.tee(2)
        channel.push(1)
        channel.push(2)
        channel.close()
        outcomes.append((list(left), list(right)))
        for attempt in (
            lambda: iter(channel),
            lambda: channel.__aiter__(),
            lambda: channel.push(3),
        ):
            try:
                attempt()
            except (TypeError, RuntimeError) as exc:
                outcomes.append((type(exc).__name__, str(exc)))
        return outcomes

    outcomes = assert_same(scenario)
    assert outcomes[2] == ([1, 2], [1, 2])


def test_transformers_given_at_compile_time_apply_to_every_run():
    def scenario(b):
        graph, config = b.graph, b.config
        t = b.mod("stream.transformers")

        def talk(state):
            config.get_stream_writer()({"said": "compiled"})
            return {"items": ["talked"]}

        builder = graph.StateGraph(dict)
        builder.add_node("talk", talk)
        builder.add_edge(graph.START, "talk")
        app = builder.compile(transformers=[t.CustomTransformer])
        return [list(quiet(lambda: app.stream_events({}, version="v3")).custom) for _ in range(2)]

    assert assert_same(scenario) == [[{"said": "compiled"}], [{"said": "compiled"}]]
