"""A checkpoint file that was tampered with, or is not ours (SECURITY issue 10, items 1, 9, 10).

A real thread is written by `superstep run --db F`; then a row is replaced by crafted bytes.
Listing threads reads ids only (nothing is decoded, nothing imported); reading the thread, through
the saver or `superstep run --db F --continue`, is one clear error naming the file, the thread
and the checkpoint (exit 2, no traceback), the crafted module never runs, and the file is left
exactly as it was. Foreign, corrupt and unopenable files are refused by name, never extended.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import sys
import uuid

import ormsgpack
import pytest

from engine.checkpoint.sqlite import CheckpointDatabaseError, SqliteSaver
from studio.cli import main
from tests.engine.checkpoint.test_serde_no_import import CLASS_REFS, _nested_exts
from tests.graphspec.helpers import TEMPLATES

THREAD = "t"


@pytest.fixture
def trap(tmp_path, monkeypatch):
    """A module beside the database, on sys.path, that leaves a marker if it is ever imported."""
    name = f"ckpt_db_trap_{uuid.uuid4().hex[:8]}"
    marker = tmp_path / "imported.marker"
    (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name, marker
    assert not marker.exists(), "the crafted module ran"
    assert name not in sys.modules
    sys.modules.pop(name, None)


@pytest.fixture
def thread_db(tmp_path, capsys):
    """(spec path, db path) after a finished run of a counter loop on thread `t`."""
    spec = tmp_path / "loop.json"
    shutil.copy(TEMPLATES / "counter_loop.json", spec)
    db = tmp_path / "loop.checkpoints.sqlite"
    assert main(["run", str(spec), "--db", str(db), "--thread", THREAD]) == 0
    capsys.readouterr()
    return spec, db


def ext(code: int, payload) -> bytes:
    return ormsgpack.packb(ormsgpack.Ext(code, ormsgpack.packb(payload)))


def crafted_values(module: str) -> dict[str, bytes]:
    """Stored-value bytes of every kind the serializer knows, each crafted to attack it."""
    values = {f"{kind} naming a module on sys.path": ext(code, [module, "Thing", *rest])
              for kind, (code, rest) in CLASS_REFS.items()}  # fmt: skip
    values.update({
        "enum of a builtin function": ext(20, ["builtins", "eval", "1+1"]),
        "set of unhashables": ext(2, [{"a": 1}]),
        "unknown extension code": ext(99, []),
        "huge integer": ext(11, "9" * 100_000),
        "100,000 nested arrays": b"\x91" * 100_000 + b"\xc0",
        "100,000 nested tuples": _nested_exts(100_000),
        "array claiming 2**32 items": b"\xdd\xff\xff\xff\xff\xc0",
        "tuple claiming 2**32 items": ormsgpack.packb(ormsgpack.Ext(1, b"\xdd\xff\xff\xff\xff")),
        "truncated": b"\x92\x01",
    })  # fmt: skip
    return values


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tamper(db, sql: str, *params) -> str:
    conn = sqlite3.connect(db)
    with conn:
        assert conn.execute(sql, params).rowcount > 0, sql
    conn.close()
    return digest(db)


def newest_checkpoint(db) -> str:
    conn = sqlite3.connect(db)
    (checkpoint_id,) = conn.execute("SELECT max(checkpoint_id) FROM checkpoints").fetchone()
    conn.close()
    return checkpoint_id


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_clear_line(err: str, *parts: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for part in parts:
        assert part in err, (part, err)


@pytest.mark.parametrize("attack", sorted(crafted_values("m")))
def test_crafted_channel_value_is_refused_by_name_through_saver_and_cli(
    attack, thread_db, trap, capsys
):
    spec, db = thread_db
    module, _marker = trap
    before = tamper(db, "UPDATE blobs SET type = 'msgpack', value = ? WHERE channel = 'count'",
                    crafted_values(module)[attack])  # fmt: skip
    checkpoint_id = newest_checkpoint(db)
    with SqliteSaver.from_conn_string(str(db)) as saver:
        assert saver.list_threads() == [THREAD]  # ids only: nothing decoded
        with pytest.raises(CheckpointDatabaseError) as caught:
            saver.get_tuple({"configurable": {"thread_id": THREAD}})
    message = str(caught.value)
    assert str(db) in message and f"thread {THREAD!r}" in message
    assert f"checkpoint {checkpoint_id!r}" in message and "channel 'count'" in message
    for flag in ("--continue", "--resume"):
        argv = ["run", str(spec), "--db", str(db), "--thread", THREAD, flag]
        code, out, err = cli(capsys, *argv, *(["1"] if flag == "--resume" else []))
        assert (code, out) == (2, "")
        assert_one_clear_line(err, str(db), f"thread {THREAD!r}", checkpoint_id, "count")
    code, out, err = cli(capsys, "run", str(spec), "--db", str(db), "--thread", THREAD)
    assert (code, out) == (2, "")
    assert_one_clear_line(err, str(db), checkpoint_id)
    assert digest(db) == before


@pytest.mark.parametrize(
    "sql, params, why",
    [
        ("UPDATE checkpoints SET checkpoint = ?", [ext(21, ["os", "system", {}])], "not a class"),
        ("UPDATE checkpoints SET checkpoint = ?", [ormsgpack.packb([1, 2])], "not a mapping"),
        ("UPDATE checkpoints SET checkpoint = ?", [ormsgpack.packb({"v": 1})], "'id'"),
        ("UPDATE checkpoints SET checkpoint = ?", [b"\xdd\xff\xff\xff\xff"], "corrupt"),
        ("UPDATE checkpoints SET checkpoint = 'text'", [], "not bytes"),
        ("UPDATE checkpoints SET metadata = '{'", [], "metadata is not JSON"),
        ("UPDATE checkpoints SET metadata = '[1]'", [], "not a JSON object"),
        ("UPDATE checkpoints SET metadata = ?", [b"\x00"], "not text"),
        ("UPDATE blobs SET type = 'pickle'", [], "pickle"),
        ("UPDATE blobs SET type = 'yaml'", [], "unknown serialization type"),
        ("UPDATE blobs SET type = 'delta'", [], "lost its base"),
        ("UPDATE blobs SET value = NULL", [], "not bytes"),
        ("UPDATE blobs SET value = 42", [], "not bytes"),
    ],
    ids=lambda v: str(v)[:40],
)
def test_tampered_rows_are_one_clear_error(thread_db, capsys, sql, params, why):
    spec, db = thread_db
    before = tamper(db, sql, *params)
    with SqliteSaver.from_conn_string(str(db)) as saver:
        assert saver.list_threads() == [THREAD]
        with pytest.raises(CheckpointDatabaseError, match=why) as caught:
            saver.get_tuple({"configurable": {"thread_id": THREAD}})
    assert f"thread {THREAD!r}, checkpoint " in str(caught.value)
    code, out, err = cli(
        capsys, "run", str(spec), "--db", str(db), "--thread", THREAD, "--continue"
    )
    assert (code, out) == (2, "")
    assert_one_clear_line(err, str(db), f"thread {THREAD!r}")
    assert digest(db) == before


def test_tampered_pending_write_names_the_task(tmp_path, capsys, trap):
    module, _marker = trap
    db = tmp_path / "approval.sqlite"
    assert main(["run", "approval", "--db", str(db), "--thread", THREAD]) == 0  # interrupted
    capsys.readouterr()
    tamper(db, "UPDATE writes SET type = 'msgpack', value = ?", ext(21, [module, "Thing", {}]))
    code, out, err = cli(capsys, "run", "approval", "--db", str(db), "--thread", THREAD,
                         "--resume", "true")  # fmt: skip
    assert (code, out) == (2, "")
    assert_one_clear_line(err, str(db), "task ", "not imported")


def test_metadata_filter_on_tampered_metadata_is_a_clear_error(thread_db):
    _spec, db = thread_db
    tamper(db, "UPDATE checkpoints SET metadata = 'nope'")
    with SqliteSaver.from_conn_string(str(db)) as saver:
        with pytest.raises(CheckpointDatabaseError, match=r"thread 't', checkpoint .*metadata"):
            list(saver.list(None, filter={"step": 1}))


def test_list_threads_reads_ids_without_decoding(tmp_path, trap):
    module, _marker = trap
    from tests.engine.checkpoint.test_sqlite_file import run

    db = tmp_path / "many.sqlite"
    for thread in ("b", "a", "c"):
        run(db, thread, 2)
    tamper(db, "UPDATE blobs SET type = 'msgpack', value = ?", ext(20, [module, "Thing", 1]))
    tamper(db, "UPDATE checkpoints SET checkpoint = x'c1', metadata = '{'")
    with SqliteSaver.from_conn_string(str(db)) as saver:
        assert saver.list_threads() == ["a", "b", "c"]


# ------------------------------------------------------------------ files that are not ours


def _foreign(path, journal: str = "delete"):
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA journal_mode={journal}")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('keep me')")
    conn.commit()
    conn.close()


def test_foreign_database_is_refused_not_extended(tmp_path, capsys):
    path = tmp_path / "notes.sqlite"
    _foreign(path)
    before = digest(path)
    with SqliteSaver.from_conn_string(str(path)) as saver:
        with pytest.raises(CheckpointDatabaseError, match=r"notes\.sqlite.*notes.*not created by"):
            saver.setup()
    conn = sqlite3.connect(path)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # not switched to WAL
    conn.close()
    assert digest(path) == before
    code, out, err = cli(capsys, "run", "router", "--db", str(path))
    assert (code, out) == (2, "")
    assert_one_clear_line(err, str(path), "not created by this saver")
    assert digest(path) == before and not (tmp_path / "notes.sqlite-wal").exists()


def test_empty_database_file_becomes_ours(tmp_path):
    path = tmp_path / "empty.sqlite"
    sqlite3.connect(path).close()
    with SqliteSaver.from_conn_string(str(path)) as saver:
        saver.setup()
        assert saver.list_threads() == []
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_db_that_is_a_directory_is_bad_input(tmp_path, capsys):
    folder = tmp_path / "folder.sqlite"
    folder.mkdir()
    for extra in ([], ["--continue"], ["--resume", "1"]):
        code, out, err = cli(capsys, "run", "router", "--db", str(folder), *extra)
        assert (code, out) == (2, "")
        assert_one_clear_line(err, str(folder), "is a directory")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("flag", [["--continue"], ["--resume", "true"], []])
def test_corrupt_database_is_bad_input_and_left_alone(tmp_path, capsys, flag):
    path = tmp_path / "corrupt.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + os.urandom(3000))
    before = digest(path)
    code, out, err = cli(capsys, "run", "approval", "--db", str(path), *flag)
    assert (code, out) == (2, "")
    assert_one_clear_line(err, str(path), "not a usable SQLite database")
    assert digest(path) == before


def test_disk_io_error_is_a_clear_message(tmp_path):
    from tests.engine.checkpoint.test_sqlite_file import run

    path = tmp_path / "io.sqlite"
    run(path, "t", 1)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=delete")  # back to a rollback journal...
    conn.close()
    (tmp_path / "io.sqlite-journal").mkdir()  # ...that cannot be written
    with SqliteSaver.from_conn_string(str(path)) as saver:
        with pytest.raises(CheckpointDatabaseError, match=r"io\.sqlite: the disk failed") as caught:
            saver.setup()
    assert "disk I/O error" in str(caught.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_folder_is_named(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    os.chmod(folder, stat.S_IRUSR | stat.S_IXUSR)
    try:
        code, out, err = cli(capsys, "run", "router", "--db", str(folder / "x.sqlite"))
    finally:
        os.chmod(folder, stat.S_IRWXU)
    assert (code, out) == (2, "")
    assert_one_clear_line(err, f"the folder {folder} is read-only")


def test_cli_leaves_a_good_thread_readable(thread_db, capsys):
    spec, db = thread_db
    code, out, err = cli(
        capsys, "run", str(spec), "--db", str(db), "--thread", THREAD, "--continue"
    )
    assert (code, err) == (
        2,
        f"superstep run: thread {THREAD!r} has nothing pending to resume or continue\n",
    )
    with SqliteSaver.from_conn_string(str(db)) as saver:
        saved = saver.get_tuple({"configurable": {"thread_id": THREAD}})
    assert saved.checkpoint["channel_values"]["count"] == 5
