"""The `superstep` command: spec's command line plus `superstep studio`, which opens the app.

It lives here, above spec, so that spec never imports the studio; Qt loads only when the
`studio` subcommand runs, so every other subcommand works without it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from graphspec import cli as spec_cli


def _add_studio(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("studio", help="open the desktop studio (optionally on a spec)")
    p.add_argument("spec", nargs="?", help="spec file, or a bundled template name")
    p.add_argument("--screenshot", metavar="PNG", help="save a picture of the window once loaded")
    p.add_argument("--quit", action="store_true", help="quit once loaded (after --screenshot)")
    p.set_defaults(func=_studio)


def _studio(args: argparse.Namespace) -> int:
    try:
        from studio.app import run
    except ImportError as exc:
        raise spec_cli.BadInput(f"the studio needs PySide6 and qasync: {exc}") from None
    return run(args.spec, screenshot_path=args.screenshot, quit_after=args.quit)


def main(argv: Sequence[str] | None = None) -> int:
    return spec_cli.main(argv, extra=[_add_studio])


if __name__ == "__main__":
    raise SystemExit(main())
