"""Channels a program builds by hand and passes to Pregel keep their own key (empty unless the
caller named it): langgraph names only a StateGraph's state channels, so a step's conflicting
writes to a hand-built channel say "At key ''", also after a restore from a checkpoint.
"""

from __future__ import annotations

from tests.oracle import normalize, run_both


def _two_writers(b, channel_kind: str):
    Pregel, NodeBuilder = b.pregel.Pregel, b.pregel.NodeBuilder
    kind = getattr(b.channels, channel_kind)
    # two nodes woken by the same input both write "total" in one step
    doubler = NodeBuilder().subscribe_only("start").do(lambda x: x * 2).write_to("total")
    squarer = NodeBuilder().subscribe_only("start").do(lambda x: x * x).write_to("total")
    return Pregel(
        nodes={"doubler": doubler, "squarer": squarer},
        channels={"start": b.channels.EphemeralValue(int), "total": kind(int)},
        input_channels="start",
        output_channels="total",
        checkpointer=b.mod("checkpoint.memory").InMemorySaver(),
    )


def _conflict(channel_kind: str):
    def scenario(b):
        app = _two_writers(b, channel_kind)
        return app.invoke(3, {"configurable": {"thread_id": "t"}})

    return scenario


def test_last_value_conflict_names_no_key():
    expected, actual = run_both(_conflict("LastValue"))
    assert "At key ''" in str(expected)
    assert normalize(actual) == normalize(expected)


def test_ephemeral_value_conflict_names_no_key():
    expected, actual = run_both(_conflict("EphemeralValue"))
    assert "At key ''" in str(expected)
    assert normalize(actual) == normalize(expected)


def test_restored_hand_built_channel_stays_unnamed():
    def scenario(b):
        Pregel, NodeBuilder = b.pregel.Pregel, b.pregel.NodeBuilder
        LastValue, EphemeralValue = b.channels.LastValue, b.channels.EphemeralValue
        # the first run stores "seen"; the second, restored from that checkpoint, writes it twice
        keep = NodeBuilder().subscribe_only("start").do(lambda x: x).write_to("seen")
        again = NodeBuilder().subscribe_only("start").do(lambda x: x + 1).write_to("seen")
        saver = b.mod("checkpoint.memory").InMemorySaver()
        config = {"configurable": {"thread_id": "t"}}
        channels = {"start": EphemeralValue(int), "seen": LastValue(int)}
        first = Pregel(
            nodes={"keep": keep},
            channels=channels,
            input_channels="start",
            output_channels="seen",
            checkpointer=saver,
        )
        out = [first.invoke(1, config)]
        second = Pregel(
            nodes={"keep": keep, "again": again},
            channels={"start": EphemeralValue(int), "seen": LastValue(int)},
            input_channels="start",
            output_channels="seen",
            checkpointer=saver,
        )
        try:
            second.invoke(2, config)
        except Exception as exc:
            out.append(str(exc))
        out.append(first.invoke(5, {"configurable": {"thread_id": "u"}}))
        return out

    expected, actual = run_both(scenario)
    assert "At key ''" in expected[1]
    assert normalize(actual) == normalize(expected)
