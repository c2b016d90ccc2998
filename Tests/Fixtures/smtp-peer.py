# The loopback SMTP server of the Mail tests (aiosmtpd), run by Tests/LocalTestSupport/SMTPPeer.swift:
# python3 smtp-peer.py FOLDER [options]; it prints 'PORT N' and stops when standard input closes.
import asyncio, json, os, signal, ssl, sys
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

folder = sys.argv[1]
args = sys.argv[2:]
tls = login = None
hang = stall = False
while args:
    if args[0] == '--tls':
        tls = (args[1], args[2]); args = args[3:]
    elif args[0] == '--login':
        login = (args[1].encode(), args[2].encode()); args = args[3:]
    elif args[0] == '--hang':
        hang = True; args = args[1:]
    elif args[0] == '--stall':
        stall = True; args = args[1:]
    else:
        sys.exit('unknown argument ' + args[0])

count = 0
class Handler:
    async def handle_DATA(self, server, session, envelope):
        global count
        if hang:
            open(os.path.join(folder, 'data-started'), 'w').close()
            await asyncio.sleep(3600)
        count += 1
        path = os.path.join(folder, str(count))
        with open(path + '.json.tmp', 'w') as f:
            json.dump({'from': envelope.mail_from, 'to': envelope.rcpt_tos}, f)
        with open(path + '.eml.tmp', 'wb') as f:
            f.write(envelope.original_content)
        os.rename(path + '.json.tmp', path + '.json')
        os.rename(path + '.eml.tmp', path + '.eml')
        return '250 Message accepted'

def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == login
    return AuthResult(success=ok, handled=False)

class StallingSMTP(SMTP):
    async def smtp_DATA(self, arg):
        await self.push('354 End data with <CR><LF>.<CR><LF>')
        self.transport.pause_reading()
        open(os.path.join(folder, 'data-started'), 'w').close()
        await asyncio.sleep(3600)

def factory():
    # A 50 MB attachment is about 68 MB as base64: well above aiosmtpd's 32 MiB default.
    kwargs = dict(hostname='localhost', decode_data=False, data_size_limit=256 * 1024 * 1024)
    if tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(tls[0], tls[1])
        kwargs.update(tls_context=context, require_starttls=True)
    if login:
        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(tls))
    return (StallingSMTP if stall else SMTP)(Handler(), **kwargs)

async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(factory, '127.0.0.1', 0)
    print('PORT', server.sockets[0].getsockname()[1], flush=True)
    done = loop.create_future()
    def readable():
        if not os.read(0, 4096) and not done.done():
            done.set_result(None)
    loop.add_reader(0, readable)
    await done
    server.close()
asyncio.run(main())
