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
//
// The same connect(2) marks each TCP socket, and this executable's read(2) bounds the header
// section of what arrives on one. Why: Qt 6.4 reads an HTTP/1.1 status line and header section
// with one read(2) of one byte per byte, with no size limit, for as long as bytes keep arriving,
// inside one call of its network thread: the single thread all of a QNetworkAccessManager's
// connections share. A node that streams header lines without end kept that thread from its
// event loop: our QNetworkReply::abort() never reached it, every other node's request waited
// behind it (check --timeout 2 reported the healthy nodes unanswered, after 7 s: Qt's manager
// waits 5 s for the stuck thread at exit), and under serve every node went Unhealthy. Qt offers
// no bound on the header section and no access to its sockets, and only the socket ending ends
// that loop. So past maxByteAtATimeReads one-byte reads in a row on a TCP socket this process
// connected, read(2) shuts the socket down: Qt reads what the kernel already holds (its receive
// buffer, measured 64 KB on loopback) and then the end, and the call fails as a reset.
// Qt reads everything else (bodies, TLS records) in large reads, which reset the count.
// Rejected: shutting a node's connections down at a call's deadline (every node's call shares
// that deadline, so the healthy ones time out with it); a per-call timer cannot reach the thread.
#include "rpc/tcpnodelay.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace {

using ConnectFunction = int (*)(int, const sockaddr*, socklen_t);
using ReadFunction = ssize_t (*)(int, void*, size_t);

// Bytes a connection may deliver one read(2) of one byte at a time, in a row: the way Qt reads
// a status line and header section, and nothing else. Bounds the header section.
constexpr std::uint32_t maxByteAtATimeReads = 64 * 1024;
// Per descriptor number: 0 for one this connect(2) has not seen as TCP, else 1 plus the
// one-byte reads in a row on it. Descriptors past the table are not bounded.
constexpr int boundedDescriptors = 65536;
std::array<std::atomic<std::uint32_t>, boundedDescriptors> byteAtATimeReads{};

ReadFunction libcRead()
{
    static const auto next = reinterpret_cast<ReadFunction>(dlsym(RTLD_NEXT, "read"));
    return next;
}

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
            if (fd < boundedDescriptors)
                byteAtATimeReads[std::size_t(fd)].store(1, std::memory_order_relaxed);
        }
    }
    return libcConnect()(fd, address, length);
}

extern "C" __attribute__((visibility("default"))) ssize_t read(int fd, void* buffer, size_t size)
{
    const ssize_t result = libcRead()(fd, buffer, size);
    if (fd < 0 || fd >= boundedDescriptors)
        return result;
    std::atomic<std::uint32_t>& count = byteAtATimeReads[std::size_t(fd)];
    const std::uint32_t reads = count.load(std::memory_order_relaxed);
    if (reads == 0)
        return result;
    if (size != 1 || result != 1) {
        count.store(1, std::memory_order_relaxed);
        return result;
    }
    if (reads > maxByteAtATimeReads) {
        // A header section past the bound: the reader gets the end after what is queued.
        int type = 0;
        socklen_t typeLength = sizeof type;
        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &typeLength) == 0 && type == SOCK_STREAM)
            ::shutdown(fd, SHUT_RDWR);
        count.store(1, std::memory_order_relaxed);
        return result;
    }
    count.store(reads + 1, std::memory_order_relaxed);
    return result;
}

namespace switchyard {

bool tcpNoDelayOnEveryConnection()
{
    return dlsym(RTLD_DEFAULT, "connect") == reinterpret_cast<void*>(&::connect) && libcConnect();
}

} // namespace switchyard
