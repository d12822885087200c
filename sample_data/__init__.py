"""Data to build worlds with, outside the suite: factory_boy factories of the domain models
(`factories`) and the events the printouts are shown with (`printouts`). The tests, the
benchmarks in bench/ and the documentation's examples (docs/printing/examples.py) all build
with these, so none of them imports another's code; nothing of the apps imports them.
"""
