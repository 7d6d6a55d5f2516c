from .util import add as plus
