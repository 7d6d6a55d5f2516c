def helper(x):
    return x


def add(a, b):
    return helper(a) + b


def format(n):
    return str(helper(n))
