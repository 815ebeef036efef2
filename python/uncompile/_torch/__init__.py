"""The torch.compile integration. The only subpackage of uncompile that imports torch."""
from ._api import debug, install, prepare_debug, uninstall
from ._compat import TorchSupportError
from ._session import NotVerifiedWarning

__all__ = ["debug", "install", "prepare_debug", "uninstall", "TorchSupportError", "NotVerifiedWarning"]
