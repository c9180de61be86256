# Before any of the package's modules: the compiled hot path, when its build is current.
from app.compiled import install as _install

_install()
