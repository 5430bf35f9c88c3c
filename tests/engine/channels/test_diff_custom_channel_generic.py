"""A program's own channel class subscripts BaseChannel with three types (value, update,
checkpoint), as langgraph declares it; the built-in channels stay generic in their value type."""

from __future__ import annotations

from collections.abc import Sequence

from tests.oracle import normalize, run_both


def _flag_channel(b):
    BaseChannel = b.mod("channels.base").BaseChannel
    EmptyChannelError = b.errors.EmptyChannelError

    class AnyTrue(BaseChannel[bool, bool, bool]):
        """True once any write was True; stores the flag as its checkpoint."""

        __slots__ = ("flag",)

        def __init__(self, typ=bool):
            super().__init__(typ)
            self.flag = None

        @property
        def ValueType(self):
            return bool

        @property
        def UpdateType(self):
            return bool

        def from_checkpoint(self, checkpoint):
            new = AnyTrue(self.typ)
            new.flag = checkpoint if isinstance(checkpoint, bool) else None
            return new

        def update(self, values: Sequence[bool]) -> bool:
            if not values:
                return False
            before, self.flag = self.flag, bool(self.flag) or any(values)
            return before != self.flag

        def get(self) -> bool:
            if self.flag is None:
                raise EmptyChannelError()
            return self.flag

    return AnyTrue


def test_custom_channel_with_three_type_parameters_runs_in_pregel():
    def scenario(b):
        AnyTrue = _flag_channel(b)
        NodeBuilder = b.pregel.NodeBuilder
        odd = NodeBuilder().subscribe_only("n").do(lambda n: n % 2 == 1).write_to("seen")
        big = NodeBuilder().subscribe_only("n").do(lambda n: n > 10).write_to("seen")
        app = b.pregel.Pregel(
            nodes={"odd": odd, "big": big},
            channels={"n": b.channels.EphemeralValue(int), "seen": AnyTrue()},
            input_channels="n",
            output_channels="seen",
        )
        return [app.invoke(4), app.invoke(3), app.invoke(12)]

    expected, actual = run_both(scenario)
    assert expected == [False, True, True]
    assert normalize(actual) == normalize(expected)


def test_builtin_channels_take_one_type_parameter():
    def scenario(b):
        ch = b.channels
        return [
            type(kind[int](int)).__name__
            for kind in (ch.LastValue, ch.EphemeralValue, ch.Topic, ch.AnyValue, ch.UntrackedValue)
        ]

    expected, actual = run_both(scenario)
    assert actual == expected


def test_custom_channel_must_declare_its_value_and_update_types():
    def scenario(b):
        BaseChannel = b.mod("channels.base").BaseChannel

        class Latest(BaseChannel[int, int, int]):
            """Keeps the last write, but says nothing of the types it holds."""

            def from_checkpoint(self, checkpoint):
                return Latest(self.typ)

            def update(self, values):
                return bool(values)

            def get(self):
                return 0

        return Latest(int)

    expected, actual = run_both(scenario)
    assert isinstance(expected, TypeError)
    assert normalize(actual) == normalize(expected)
