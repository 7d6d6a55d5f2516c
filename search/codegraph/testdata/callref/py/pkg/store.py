from . import util


class Store:
    def __init__(self):
        self.items = []

    def save(self, item):
        self.items.append(util.format(item))
        self.flush()

    def flush(self):
        return len(self.items)


class Cache:
    def save(self, key):
        return key

    def flush(self):
        return 0
