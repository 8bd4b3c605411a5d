// TCP_NODELAY on every TCP connection the process opens, set by connect(2) itself.
//
// Why: Qt 6.4 never sets TCP_NODELAY on the sockets of QNetworkAccessManager (its HTTP channel
// leaves LowDelayOption commented out, in every Qt 6 release) nor of QWebSocket. With Nagle on,
// a request that leaves in two writes waits for the server's delayed ACK of the first, 40 ms or
// more: over HTTP/2 every request (DATA after HEADERS), over HTTP/1.1 every body past Qt's
// 16 KiB write chunk. bench/pool/bench_bodysize measured 44 ms a call for both on loopback, and
// 0.3 to 1.3 ms with this in place. QNetworkAccessManager has no API for it and keeps its
// sockets private to its HTTP thread.
//
// How: this executable defines connect(2). The dynamic linker binds every library's call to the
// executable's definition before libc's (it is exported because Qt's libraries reference it),
// so Qt's HTTP/1.1, HTTP/2, TLS and WebSocket sockets, and anything else, come through here; a
// TCP socket gets TCP_NODELAY before its first byte, then libc's connect (dlsym RTLD_NEXT) runs.
// Rejected: walking QNetworkAccessManager's QObject tree for its sockets (private classes that
// live in another thread, a layout that changes between releases); finding the sockets by
// their peer in /proc/self/fd after a reply's signals (a scan per new connection, racing Qt's
// first write on it, which is the one HTTP/2 needs unstalled; and QWebSocket needs its own).
// Prove it: strace -f -e trace=setsockopt,connect switchyard check shows
// setsockopt(fd, SOL_TCP, TCP_NODELAY, [1], 4) before every connect of a TCP socket.
#include "rpc/tcpnodelay.h"

#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace {

using ConnectFunction = int (*)(int, const sockaddr*, socklen_t);

ConnectFunction libcConnect()
{
    static const auto next = reinterpret_cast<ConnectFunction>(dlsym(RTLD_NEXT, "connect"));
    return next;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int connect(int fd, const sockaddr* address,
                                                              socklen_t length)
{
    if (address && (address->sa_family == AF_INET || address->sa_family == AF_INET6)) {
        int type = 0;
        socklen_t typeLength = sizeof type;
        // Stream sockets only: a connected UDP socket (a DNS resolver's) has no Nagle.
        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &typeLength) == 0 && type == SOCK_STREAM) {
            const int on = 1;
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        }
    }
    return libcConnect()(fd, address, length);
}

namespace switchyard {

bool tcpNoDelayOnEveryConnection()
{
    return dlsym(RTLD_DEFAULT, "connect") == reinterpret_cast<void*>(&::connect) && libcConnect();
}

} // namespace switchyard
