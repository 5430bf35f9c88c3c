"""Settings → Model providers: per provider, the API key (kept in the OS keychain; the
environment variable, when set, wins and is said so), the base URL (OpenAI-compatible servers,
Ollama on localhost), and Test connection, which asks the model for one token off the GUI thread
and says plainly what happened. A missing provider package is named with its install command."""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from graphspec import credentials
from graphspec.provider_errors import describe_provider_error
from graphspec.providers import PROVIDER_PACKAGES, install_hint, missing_packages
from studio.i18n import translate
from studio.workers import DaemonExecutor

TEST_MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-3-5-haiku-latest", "ollama": "llama3.2",
               "google_genai": "gemini-2.0-flash"}  # fmt: skip


def test_connection(
    provider: str, model: str, key: str, base_url: str, timeout: float = 15.0
) -> tuple[bool, str]:
    """(ok, what to tell the user): one tiny request with these settings (nothing is saved)."""
    if missing := missing_packages(provider):
        return False, install_hint(provider, missing)
    from graphspec.errors import SpecError
    from graphspec.providers import init_provider_model

    params: dict = {"timeout": timeout, "max_retries": 0}
    if base_url:
        params["base_url"] = base_url
    if key:
        params["api_key"] = key
    started = time.perf_counter()
    try:
        chat = init_provider_model(provider, model, params)
        chat.invoke(translate("chat.provider_dialog", "Reply with OK."))
    except SpecError as exc:
        return False, exc.line() if hasattr(exc, "line") else str(exc)
    except Exception as exc:  # a provider error, said plainly; anything else by its kind
        said = describe_provider_error(exc)
        return (
            False,
            said or f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
        )
    return True, translate(
        "chat.provider_dialog", "Connected: {model} answered in {value:.1f}s"
    ).format(model=model, value=time.perf_counter() - started)


class _Result(QObject):
    done = Signal(bool, str)


class ProviderSettingsDialog(QDialog):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("chat.provider_dialog", "Model providers"))
        self.setObjectName("providerSettingsDialog")
        self.setMinimumWidth(520)
        self._executor = DaemonExecutor("provider-test")
        self._result = _Result(self)
        self._result.done.connect(self._tested)
        form = QFormLayout()
        self.provider = QComboBox()
        self.provider.setObjectName("providerCombo")
        others = sorted(p for p in PROVIDER_PACKAGES if p not in credentials.SETTINGS_PROVIDERS)
        self.provider.addItems([*credentials.SETTINGS_PROVIDERS, *others])
        self.provider.currentTextChanged.connect(self._load)
        form.addRow(translate("chat.provider_dialog", "Provider"), self.provider)
        self.package = QLabel()
        self.package.setObjectName("providerPackage")
        self.package.setWordWrap(True)
        self.package.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("", self.package)
        self.key = QLineEdit()
        self.key.setObjectName("apiKeyEdit")
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        form.addRow(translate("chat.provider_dialog", "API key"), self.key)
        self.key_note = QLabel()
        self.key_note.setObjectName("apiKeyNote")
        self.key_note.setWordWrap(True)
        form.addRow("", self.key_note)
        self.base_url = QLineEdit()
        self.base_url.setObjectName("baseUrlEdit")
        form.addRow(translate("chat.provider_dialog", "Base URL"), self.base_url)
        self.model = QLineEdit()
        self.model.setObjectName("testModelEdit")
        form.addRow(translate("chat.provider_dialog", "Model to test"), self.model)
        self.test_button = QPushButton(translate("chat.provider_dialog", "Test connection"))
        self.test_button.setObjectName("testConnectionButton")
        self.test_button.clicked.connect(self.test)
        form.addRow("", self.test_button)
        self.result = QLabel()
        self.result.setObjectName("testResult")
        self.result.setWordWrap(True)
        self.result.setTextFormat(Qt.TextFormat.PlainText)
        form.addRow("", self.result)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Close
        )
        buttons.button(QDialogButtonBox.StandardButton.Save).setObjectName("saveProviderButton")
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self._load(self.provider.currentText())

    def _load(self, provider: str) -> None:
        missing = missing_packages(provider)
        self.package.setText(
            install_hint(provider, missing)
            if missing
            else translate("chat.provider_dialog", "{value} is installed").format(
                value=PROVIDER_PACKAGES[provider]
            )
        )
        env = credentials.api_key_env(provider)
        self.key.setEnabled(env is not None)
        self.key.setText("")
        source = credentials.key_source(provider) if env else None
        if env is None:
            self.key_note.setText(
                translate("chat.provider_dialog", "This provider takes no API key")
            )
        elif source == "environment":
            self.key_note.setText(
                translate(
                    "chat.provider_dialog",
                    "{env} is set in the environment: it is used, whatever is saved here",
                ).format(env=env)
            )
        elif source == "keychain":
            self.key_note.setText(
                translate(
                    "chat.provider_dialog",
                    "A key is saved in the OS keychain (type a new one to replace it, or clear to keep)",
                )
            )
        else:
            self.key_note.setText(
                translate(
                    "chat.provider_dialog",
                    "No key yet: saved in the OS keychain, never in a spec (or set {env})",
                ).format(env=env)
            )
        self.base_url.setText(credentials.base_url(provider))
        self.base_url.setPlaceholderText(
            credentials.DEFAULT_BASE_URLS.get(provider, "the provider's default")
        )
        self.model.setText(TEST_MODELS.get(provider, ""))
        self.result.setText("")

    def _key_to_use(self, provider: str) -> str:
        env = credentials.api_key_env(provider)
        if env and os.environ.get(env):
            return ""  # the client reads the environment itself
        return self.key.text() or (credentials.stored_key(provider) or "")

    def test(self) -> None:
        provider = self.provider.currentText()
        args = (
            provider,
            self.model.text().strip(),
            self._key_to_use(provider),
            self.base_url.text().strip(),
        )
        self.test_button.setEnabled(False)
        self.result.setStyleSheet("")
        self.result.setText(translate("chat.provider_dialog", "Testing…"))
        self._executor.submit(lambda: self._result.done.emit(*test_connection(*args)))

    def _tested(self, ok: bool, text: str) -> None:
        self.test_button.setEnabled(True)
        self.result.setStyleSheet(f"color: {'#065f46' if ok else '#b91c1c'};")
        self.result.setText(("✓ " if ok else "✗ ") + text)

    def save(self) -> None:
        provider = self.provider.currentText()
        try:
            if self.key.text():
                credentials.store_key(provider, self.key.text())
            credentials.save_base_url(provider, self.base_url.text().strip())
        except Exception as exc:  # no keychain on this machine, an unwritable config folder
            self.result.setStyleSheet("color: #b91c1c;")
            self.result.setText(
                translate("chat.provider_dialog", "✗ Not saved: {name__}: {exc}").format(
                    name__=type(exc).__name__, exc=exc
                )
            )
            return
        self._load(provider)
        self.result.setStyleSheet("color: #065f46;")
        self.result.setText(translate("chat.provider_dialog", "Saved"))
