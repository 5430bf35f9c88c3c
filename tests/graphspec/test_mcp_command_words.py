"""An MCP server's command line splits into words as the user's OS splits it.

On Windows a backslash separates folders, so `python C:\\Users\\me\\server.py` must keep it
(POSIX rules dropped every one: the server could not start); a command line the studio shows
for a server (list2cmdline there) reads back as the same words on each OS.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphspec.mcp_servers import command_line, command_words


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        (r"python C:\Users\me\server.py", ["python", r"C:\Users\me\server.py"]),
        (r'"C:\Program Files\nodejs\npx.cmd" -y @mcp/fs "C:\my notes"',
         [r"C:\Program Files\nodejs\npx.cmd", "-y", "@mcp/fs", r"C:\my notes"]),
        (r'uv run --directory \\server\share\tools  srv.py', ["uv", "run", "--directory",
                                                              r"\\server\share\tools", "srv.py"]),
        (r'echo "a\"b" "" c\\"d e"', ["echo", 'a"b', "", r"c\d e"]),
    ],
)  # fmt: skip
def test_a_windows_command_line_keeps_its_backslashes(typed, words):
    assert command_words(typed, windows=True) == words


def test_a_posix_command_line_is_split_as_a_shell_does():
    assert command_words("python 'my server.py' --root ~/notes", windows=False) == [
        "python", "my server.py", "--root", "~/notes"]  # fmt: skip


@pytest.mark.parametrize("windows", [True, False])
def test_an_unclosed_quote_is_refused(windows):
    with pytest.raises(ValueError, match="No closing quotation"):
        command_words('python "server.py', windows=windows)


@given(st.lists(st.text(alphabet=" \t\"\\'abc:/~-", max_size=8), min_size=1, max_size=5))
@pytest.mark.parametrize("windows", [True, False])
def test_a_shown_command_line_reads_back_as_its_words(windows, words):
    assert command_words(command_line(words, windows), windows) == words
