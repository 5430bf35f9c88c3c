"""The Threads side of the run controller: the thread selector and the Threads dock (list,
new, choose, rename, delete), and the names, dates and inputs the thread book keeps."""

from __future__ import annotations

from studio.i18n import translate
from studio.run.runner import ThreadView
from studio.run.threads import LIVE_STATUSES


class ThreadControl:
    """Mixed into RunController (which owns the widgets and the session these methods use)."""

    def _threads_ready(self, threads: list[str]) -> None:
        self.threads = threads
        if self._picked:
            self._fill_threads()
        elif (last := self.book.last_run(threads) or self._program_thread(threads)) is not None:
            # a spec just opened: where the studio (or the program's script) ran last, its
            # history shown when it may compile
            self._go_to(last)
            if self.window.run_blocker() is None:
                self.show_thread()
        else:  # none run from the studio: a thread with no history
            self._thread = "main" if "main" not in threads else self._fresh_thread()
            self._fill_threads()

    def _program_thread(self, threads: list[str]) -> str | None:
        """The thread a program's script ran its graph on last, when its saver lists it."""
        thread = getattr(self.document.code, "thread", None)
        return str(thread) if thread is not None and str(thread) in threads else None

    def _summaries_ready(self, summaries: dict) -> None:
        self.summaries = summaries
        self._fill_threads()

    def _fill_threads(self) -> None:
        ids = sorted({*self.threads, self._thread})
        book = self.book
        self.thread_selector.blockSignals(True)
        self.thread_selector.clear()
        for thread_id in ids:
            self.thread_selector.addItem(book.get(thread_id).label if thread_id in book.threads
                                         else thread_id, thread_id)  # fmt: skip
        self.thread_selector.setCurrentIndex(ids.index(self._thread))
        self.thread_selector.blockSignals(False)
        rows = []
        for thread_id in ids:
            info = book.threads.get(thread_id)
            summary = self.summaries.get(thread_id)
            step = summary.last_step if summary is not None else (info.last_step if info else None)
            if thread_id == self.live:
                status = "paused"
            elif info is not None and info.status and info.status not in LIVE_STATUSES:
                status = info.status  # what this studio saw last (a run it held ended with it)
            elif summary is not None:
                status = {"idle": "idle", "pending": "stopped"}.get(summary.status, summary.status)
            else:
                status = "" if thread_id in self.threads else "new"
            created = (info.created if info else "").replace("T", " ")
            rows.append((thread_id, info.label if info else thread_id, created,
                         "" if step is None else str(step), status))  # fmt: skip
        self.thread_list.show_threads(rows, self._thread)

    def _fresh_thread(self) -> str:
        """A thread no run has used: neither one the database lists nor, before that listing
        arrives (a worker reads it after the window opens), one the thread book knows."""
        taken = {*self.threads, *self.book.threads}
        n = len(self.threads) + 1
        while f"run-{n}" in taken:
            n += 1
        return f"run-{n}"

    def new_thread(self) -> None:
        if self.session.running:
            self._say(translate("run.thread_control", "A run is in progress: Stop it first"))
            return
        self._picked = True
        self._thread = self._fresh_thread()
        self.book.get(self._thread)  # created now
        self.view = None
        self.history.show_thread(ThreadView(self.thread_id, []))
        self.interrupt_panel.show_interrupts([])
        self._fill_threads()
        self._set_state("idle")
        self._say(
            translate("run.thread_control", "New thread {thread_id}").format(
                thread_id=self.thread_id
            )
        )

    def choose_thread(self, thread_id: str | None) -> None:
        """Show a thread's history and channels; a paused run elsewhere stays paused there."""
        if not thread_id or thread_id == self._thread and self.view is not None:
            return
        self._go_to(thread_id)
        self.show_thread()

    def _go_to(self, thread_id: str) -> None:
        self._picked = True
        self._thread = thread_id
        saved = self.book.threads.get(thread_id)
        if saved is not None and isinstance(saved.input, dict):
            self.input_panel.set_value(saved.input)  # the input last run on this thread
        self._fill_threads()

    def rename_thread(self, thread_id: str, name: str) -> None:
        self.book.note(thread_id, name=name if name != thread_id else "")
        self._fill_threads()
        self._say(
            translate("run.thread_control", "Thread {thread_id} is now shown as {value}").format(
                thread_id=thread_id, value=name or thread_id
            )
        )

    def delete_thread(self, thread_id: str) -> None:
        if self.session.running:
            self._say(translate("run.thread_control", "A run is in progress: Stop it first"))
            return
        if self.live == thread_id:
            self.live = None
        self.book.forget(thread_id)
        self.threads = [t for t in self.threads if t != thread_id]
        if self._thread == thread_id:
            self._thread = self.threads[0] if self.threads else "main"
            self.view = None
            self.history.show_thread(ThreadView(self._thread, []))
        self._fill_threads()
        self.session.delete_thread(thread_id)
        if self.threads:
            self.show_thread()
        self._say(
            translate("run.thread_control", "Deleted thread {thread_id}").format(
                thread_id=thread_id
            )
        )
