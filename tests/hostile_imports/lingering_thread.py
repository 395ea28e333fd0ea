"""A correct decoder that starts a thread (not a daemon) that never ends."""

import threading
import time


def _forever() -> None:
    while True:
        time.sleep(60)


threading.Thread(target=_forever, name="lingering").start()


def decode(data: bytes) -> str:
    return data.decode("utf-8")
