"""Chat streaming benchmark (issue 26.8): GUI time for a long streamed answer in the chat panel.

    python -m bench.chat_stream [--tokens 8000] [--repeat 3]

A main window offscreen (1280x720) with the Chat dock in front; `--tokens` tokens of one AI
message (Markdown: words, some bold, a paragraph every 100 tokens) go through the panel's
LangChain callback handler, as a run's chat model sends them, the event loop turning after each
token (layout and paint get their chance every time), then until the bubble shows the whole
text. Timed with `time.perf_counter`, median of `--repeat`. Target: under 1 s for 8,000 tokens
(re-rendering the whole bubble per token took 14.2 s). Exit status 1 when the target is missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid

if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import studio  # noqa: F401,E402  (spec models before Qt)

TARGET_S = 1.0


def tokens(count: int) -> list[str]:
    """An answer in Markdown: words, some bold, a paragraph break every 100 tokens."""
    return [
        f"**word{i}** " if i % 40 == 0 else ("\n\n" if i % 100 == 99 else f"word{i} ")
        for i in range(count)
    ]


def chat_panel(window):  # -> ChatPanel
    """The window's chat panel, its dock shown and in front."""
    dock = window.dock("chatDock")
    dock.show()
    dock.raise_()
    return window.chat_panel


def stream(panel, parts: list[str], limit_s: float = 60.0) -> tuple[float, str]:
    """Feed `parts` as one message's tokens through the panel's callback handler, the event loop
    turning after each; the seconds until the bubble shows them all, and the bubble's text."""
    from studio.app import application

    app, run_id = application(), uuid.uuid4()
    run_id = run_id = uuid.uuid4()
    message_id, whole = f"lc_run--{run_id}", "".join(parts)
    started = time.perf_counter()
    for part in parts:
        panel.handler.on_llm_new_token(part, run_id=run_id)
        app.processEvents()
    while time.perf_counter() - started < limit_s:  # the last redraw
        bubble = panel.live.get(message_id)
        if bubble is not None and bubble.text == whole:
            break
        app.processEvents()
        time.sleep(0.001)
    return time.perf_counter() - started, panel.live[message_id].text


def clear(panel) -> None:
    """Drop the streamed bubbles (the next repeat starts from an empty chat)."""
    for bubble in panel.live.values():
        bubble.deleteLater()
    panel.live.clear()
    panel.live_text.clear()
    panel._render()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tokens", type=int, default=8000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    from studio.app import application
    from studio.main_window import MainWindow

    application()
    home = tempfile.mkdtemp(prefix="bench-chat-")
    os.environ["SUPERSTEP_STUDIO_HOME"] = home  # recent files, layout: not the user's
    window = MainWindow()
    window.resize(1280, 720)
    window.show()
    panel = chat_panel(window)
    parts, times = tokens(args.tokens), []
    for _ in range(args.repeat):
        took, text = stream(panel, parts)
        if text != "".join(parts):
            print("the bubble's text is not the tokens' concatenation")
            return 1
        times.append(took)
        clear(panel)
    window.close()
    took = statistics.median(times)
    print(f"{args.tokens} tokens into one chat bubble, median of {args.repeat}")
    print("  runs (s): " + ", ".join(f"{t:.3f}" for t in times))
    print(f"  GUI time                 {took:8.3f} s  target < {TARGET_S:g}")
    failed = took >= TARGET_S
    print("SUMMARY: " + (f"FAIL GUI time {took:.2f} s" if failed else "PASS"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
