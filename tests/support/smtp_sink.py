"""A real SMTP server for tests/smtp.rs: aiosmtpd on 127.0.0.1, delivering every mail it
accepts, byte for byte, into a Maildir.

Options choose what the judge meets in the wild: STARTTLS or implicit TLS with a given
certificate, AUTH (PLAIN, LOGIN) with one user, and temporary refusals (451) of the first
mails. Prints `ready` on stdout once it answers, then serves until killed.
"""

import argparse
import mailbox
import signal
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--maildir", required=True)
    p.add_argument("--cert", help="PEM certificate chain of the server")
    p.add_argument("--key", help="PEM private key of the server")
    p.add_argument("--implicit-tls", action="store_true", help="TLS from the first byte")
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--tempfail", type=int, default=0, help="answer 451 to the first N mails")
    p.add_argument("--reject", help="answer 550 to RCPT TO addresses containing this text")
    args = p.parse_args()

    handler = Sink(args.maildir, args.tempfail)
    handler.reject = args.reject
    options = {"server_hostname": "sink.test", "ready_timeout": 20}
    if args.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
        if args.implicit_tls:
            options["ssl_context"] = context
        else:
            options["tls_context"] = context
            options["require_starttls"] = True
    if args.user:
        options["authenticator"] = Authenticator(args.user, args.password)
        options["auth_required"] = True
        options["auth_require_tls"] = bool(args.cert)
    controller = Controller(handler, hostname="127.0.0.1", port=args.port, **options)
    controller.start()
    print("ready", flush=True)
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    done.wait()
    controller.stop()


class Sink:
    def __init__(self, path, tempfail):
        self.box = mailbox.Maildir(path, create=True)
        self.tempfail = tempfail
        self.reject = None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.reject and self.reject in address:
            return "550 5.1.1 <{}>: no such user (test)".format(address)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.tempfail > 0:
            self.tempfail -= 1
            return "451 4.3.0 try again later (test)"
        head = "X-Envelope-From: {}\r\nX-Envelope-To: {}\r\n".format(
            envelope.mail_from, ", ".join(envelope.rcpt_tos)
        ).encode()
        self.box.add(head + envelope.original_content)
        return "250 2.0.0 delivered"


class Authenticator:
    def __init__(self, user, password):
        self.user = user.encode()
        self.password = password.encode()

    def __call__(self, server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login == self.user
            and auth_data.password == self.password
        )
        return AuthResult(success=ok, handled=False)


if __name__ == "__main__":
    sys.exit(main())
