"""Tries to reach the network: TCP, UDP, DNS, unix sockets by path and abstract."""

import socket

from _loop import attempt, serve


def tcp(host, port):
    def connect():
        with socket.create_connection((host, port), timeout=2):
            return "connected"

    return attempt(connect)


def udp(host, port):
    def exchange():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.settimeout(2)
            sock.sendto(b"probe", (host, port))
            return sock.recvfrom(512)[0].decode()

    return attempt(exchange)


def dns_query(host, port):
    """A raw DNS question for example.com, sent to the resolver over UDP."""
    question = (
        b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
        b"\x07example\x03com\x00\x00\x01\x00\x01"
    )

    def exchange():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.settimeout(2)
            sock.sendto(question, (host, port))
            return len(sock.recvfrom(512)[0])

    return attempt(exchange)


def resolve(name):
    return attempt(lambda: socket.getaddrinfo(name, 80)[0][4][0])


def unix(path):
    def connect():
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(2)
            sock.connect(path.replace("@", "\0", 1) if path.startswith("@") else path)
            return "connected"

    return attempt(connect)


serve({"tcp": tcp, "udp": udp, "dns_query": dns_query, "resolve": resolve, "unix": unix})
