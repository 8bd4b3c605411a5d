#include "commonoptions.h"
#include "config/configloader.h"
#include "metrics/metricswriter.h"
#include "metrics/poolmetrics.h"
#include "pool/networkpool.h"
#include "pool/poolcheck.h"
#include "pool/poolmanager.h"
#include "recording/collector.h"
#include "recording/collectorlease.h"
#include "recording/storesession.h"
#include "serve/scrapeserver.h"
#include "store/database.h"
#include "subcommand.h"
#include "terminationsignals.h"
#include "util/clock.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <csignal>
#include <cstdio>
#include <optional>
#include <qcorotask.h>
#include <sys/resource.h>

namespace switchyard::cli {

namespace {

constexpr quint16 kDefaultPort = 9464;
constexpr double kDefaultIdleTimeoutSeconds = 30;
constexpr int kMaxRequestTimeoutMs = 10'000;
// Well under the unit's TimeoutStopSec=60, with room for one more try of a store that is slow
// to fail (its busy timeout, 5 s).
constexpr double kDefaultStopTimeoutSeconds = 15;
// Stopped, but store writes were lost: the store kept refusing them.
constexpr int kExitWritesLost = 4;
// Another process took the store's collector lease from this one.
constexpr int kExitLeaseLost = 5;

struct ListenAddress
{
    QHostAddress address;
    quint16 port = 0;
};

// "ADDR:PORT", "[IPv6]:PORT"; port 0 takes a free one (printed once listening).
std::optional<ListenAddress> parseListen(const QString& text)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon <= 0)
        return std::nullopt;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool numeric = false;
    const uint port = text.mid(colon + 1).toUInt(&numeric);
    ListenAddress listen{QHostAddress(host), quint16(port)};
    if (!numeric || port > 65535 || listen.address.isNull())
        return std::nullopt;
    return listen;
}

// Every node that was not switched off has been probed once (answered, failed or timed out).
bool firstRoundDone(const PoolManager& pools)
{
    for (const std::shared_ptr<NetworkPool>& pool : pools.pools())
        for (int i = 0; i < pool->nodeCount(); ++i) {
            const NodeHealth& health = pool->node(i).health;
            if (health.state() != NodeState::Disabled && !health.lastProbeMs())
                return false;
        }
    return true;
}

serve::ScrapeAnswer textAnswer(int status, const QByteArray& body)
{
    return {status, QByteArrayLiteral("text/plain; charset=utf-8"), body};
}

// A positive number of seconds, as milliseconds; nullopt when it is not one.
std::optional<int> parseSeconds(const QString& text)
{
    bool numeric = false;
    const double seconds = text.toDouble(&numeric);
    if (!numeric || !(seconds > 0) || seconds > 24 * 3600)
        return std::nullopt;
    return qMax(1, int(seconds * 1000));
}

quint64 openFileLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return 1024;
    return limit.rlim_cur;
}

QString hostText(const QHostAddress& address)
{
    return address.protocol() == QAbstractSocket::IPv6Protocol
               ? QStringLiteral("[%1]").arg(address.toString())
               : address.toString();
}

// One collector per store (recording/collectorlease.h): a second serve waits as a standby and
// says so; one that loses the lease stops, failing, for its service manager to restart it.
void watchTheLease(Collector& collector, int* exitCode)
{
    QObject::connect(&collector, &Collector::standby, [](const QString& holder, qint64 sinceMs) {
        std::fprintf(
            stderr,
            "switchyard serve: standby: the store's collector is %s since %s; "
            "waiting\n",
            qPrintable(holder),
            qPrintable(QDateTime::fromMSecsSinceEpoch(sinceMs, Qt::UTC).toString(Qt::ISODate)));
        std::fflush(stderr);
    });
    QObject::connect(&collector, &Collector::collecting, [](const QString& previous) {
        if (previous.isEmpty())
            return;
        std::fprintf(stderr, "switchyard serve: took over as the store's collector from %s\n",
                     qPrintable(previous));
        std::fflush(stderr);
    });
    QObject::connect(&collector, &Collector::leaseFailed, [](const QString& error) {
        std::fprintf(stderr, "switchyard serve: collector lease: %s\n", qPrintable(error));
    });
    QObject::connect(&collector, &Collector::leaseLost, [exitCode](const QString& holder) {
        std::fprintf(stderr, "switchyard serve: %s took over as the store's collector; stopping\n",
                     qPrintable(holder));
        *exitCode = kExitLeaseLost;
        QCoreApplication::quit();
    });
}

// What `serve` is asked to do: its command line and the configuration it names.
struct ServeRequest
{
    QString listenText;
    ListenAddress listen;
    int idleTimeoutMs = 0;
    int stopTimeoutMs = 0;
    QString configPath;
    QByteArray configContents;
    Config config;
    QString databasePath;
};

struct ServeOptions
{
    const ConfigOption config;
    const StoreOption db{
        QStringLiteral("The event and transaction store: an SQLite file, or a PostgreSQL "
                       "database as postgresql://user@host:port/dbname.")};
    const QCommandLineOption listen{
        QStringLiteral("listen"),
        QStringLiteral("Address and port of the HTTP endpoints. Default: 127.0.0.1:%1")
            .arg(kDefaultPort),
        QStringLiteral("ADDR:PORT")};
    const QCommandLineOption idleTimeout{
        QStringLiteral("idle-timeout"),
        QStringLiteral("Seconds an HTTP connection may stay without a request, or a request take "
                       "to arrive (at most 10 s of it). Default: %1")
            .arg(kDefaultIdleTimeoutSeconds),
        QStringLiteral("SECONDS")};
    const QCommandLineOption stopTimeout{
        QStringLiteral("stop-timeout"),
        QStringLiteral("Seconds a stop waits for a store that refuses writes; what it still holds "
                       "then is lost, and the exit is %1. Default: %2")
            .arg(kExitWritesLost)
            .arg(kDefaultStopTimeoutSeconds),
        QStringLiteral("SECONDS")};
};

// --listen, --idle-timeout and --stop-timeout; an exit code when one does not read.
std::optional<int> readListenAndTimeouts(const QCommandLineParser& parser,
                                         const ServeOptions& options, ServeRequest* request)
{
    request->listenText = parser.isSet(options.listen)
                              ? parser.value(options.listen)
                              : QStringLiteral("127.0.0.1:%1").arg(kDefaultPort);
    const std::optional<ListenAddress> listen = parseListen(request->listenText);
    if (!listen)
        return fail(ExitUsage, QStringLiteral("--listen %1: expected ADDR:PORT, e.g. "
                                              "127.0.0.1:%2 or [::1]:%2")
                                   .arg(request->listenText)
                                   .arg(kDefaultPort));
    request->listen = *listen;
    const std::optional<int> idleTimeoutMs = parseSeconds(
        parser.isSet(options.idleTimeout) ? parser.value(options.idleTimeout)
                                          : QString::number(kDefaultIdleTimeoutSeconds));
    if (!idleTimeoutMs)
        return fail(ExitUsage, QStringLiteral("--idle-timeout %1: expected a number of seconds "
                                              "above 0, e.g. 30 or 0.5")
                                   .arg(parser.value(options.idleTimeout)));
    request->idleTimeoutMs = *idleTimeoutMs;
    const std::optional<int> stopTimeoutMs = parseSeconds(
        parser.isSet(options.stopTimeout) ? parser.value(options.stopTimeout)
                                          : QString::number(kDefaultStopTimeoutSeconds));
    if (!stopTimeoutMs)
        return fail(ExitUsage, QStringLiteral("--stop-timeout %1: expected a number of seconds "
                                              "above 0, e.g. 15")
                                   .arg(parser.value(options.stopTimeout)));
    request->stopTimeoutMs = *stopTimeoutMs;
    return std::nullopt;
}

// Reads the command line and loads the configuration; an exit code when the command ends here
// (help, a usage error, a configuration that does not load).
std::optional<int> readServeRequest(const QStringList& arguments, ServeRequest* request)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Watches the pool without a window: probes every node, follows tracked "
                       "transactions, records into the store, and answers /metrics (Prometheus), "
                       "/healthz and /readyz over HTTP. Ends on SIGTERM or SIGINT once every "
                       "queued store write is committed."));
    parser.addHelpOption();
    const ServeOptions options;
    parser.addOptions(
        {options.config, options.db, options.listen, options.idleTimeout, options.stopTimeout});
    if (const std::optional<int> exit = parseCommandLine(parser, arguments, ExitUsage))
        return exit;
    if (!parser.positionalArguments().isEmpty())
        return fail(ExitUsage, QStringLiteral("unexpected argument '%1'")
                                   .arg(parser.positionalArguments().constFirst()));
    if (const std::optional<int> exit = readListenAndTimeouts(parser, options, request))
        return exit;
    // Everything that can refuse is tried before anything starts: nothing half-started.
    request->configPath = options.config.path(parser);
    const ConfigResult loaded = options.config.load(parser, &request->configContents);
    if (!loaded.ok())
        return fail(ExitConfigError, loaded.errorText());
    request->config = loaded.config();
    request->databasePath = options.db.path(parser, request->config);
    return std::nullopt;
}

serve::ScrapeLimits scrapeLimits(int idleTimeoutMs)
{
    serve::ScrapeLimits limits;
    limits.idleTimeoutMs = idleTimeoutMs;
    limits.requestTimeoutMs = qMin(idleTimeoutMs, kMaxRequestTimeoutMs);
    limits.maxConnections = serve::connectionCapFor(openFileLimit());
    return limits;
}

// The store, opened for the collector's role; an exit code when it cannot be.
std::optional<int> openCollectorStore(Collector& collector, const QString& databasePath)
{
    QString storeError;
    if (!collector.openStore(databasePath, &storeError))
        return fail(ExitConfigError, storeError);
    if (const QString refused = collector.store()->database().access().refusal(
            store::StoreRole::Collector, QStringLiteral("collect as serve"));
        !refused.isEmpty())
        return fail(ExitConfigError, QStringLiteral("%1: %2").arg(databasePath, refused));
    return std::nullopt;
}

// /readyz: ready once this process collects and every node was probed once.
serve::ScrapeAnswer readiness(const Collector& collector, bool ready)
{
    if (!collector.isCollecting()) {
        const QString holder = collector.lease()->otherHolder();
        return textAnswer(
            503, (holder.isEmpty()
                      ? QStringLiteral("standby: the store's collector lease is not taken yet\n")
                      : QStringLiteral("standby: the store's collector is %1\n").arg(holder))
                     .toUtf8());
    }
    return ready ? textAnswer(200, "ready\n") : textAnswer(503, "first probe round not finished\n");
}

void routeScrapes(serve::ScrapeServer& http, metrics::PoolMetrics& poolMetrics,
                  Collector& collector, const bool& ready)
{
    http.route("/metrics", [&poolMetrics] {
        return serve::ScrapeAnswer{200, QByteArray(metrics::MetricsWriter::contentType),
                                   poolMetrics.render()};
    });
    http.route("/healthz", [&collector] {
        QList<NetworkCheck> checks;
        for (const std::shared_ptr<NetworkPool>& pool : collector.pools().pools())
            checks.append(checkNetwork(*pool));
        const bool healthy = worstStatus(checks) != CheckStatus::Critical;
        return serve::ScrapeAnswer{
            healthy ? 200 : 503, QByteArrayLiteral("application/json"),
            QJsonDocument(checkReport(checks)).toJson(QJsonDocument::Compact)};
    });
    http.route("/readyz", [&ready, &collector] { return readiness(collector, ready); });
}

void stopOnTerminationSignals(const app::TerminationSignals& termination)
{
    QObject::connect(&termination, &app::TerminationSignals::received, [](int signalNumber) {
        const char* name = signalNumber == SIGINT   ? "SIGINT"
                           : signalNumber == SIGHUP ? "SIGHUP"
                                                    : "SIGTERM";
        std::fprintf(stderr, "switchyard serve: %s: stopping\n", name);
        QCoreApplication::quit();
    });
}

void announceListening(const serve::ScrapeServer& http, const QString& configPath,
                       const QString& storePath)
{
    std::fprintf(stderr, "switchyard serve: listening on http://%s:%u (config %s, store %s)\n",
                 qPrintable(hostText(http.serverAddress())), unsigned(http.serverPort()),
                 qPrintable(configPath), qPrintable(storePath));
    if (!http.serverAddress().isLoopback())
        std::fprintf(stderr,
                     "switchyard serve: warning: %s is not a loopback address: whoever can reach "
                     "it reads the metrics and health of the pool (node names, heights, "
                     "failures); put a firewall or an authenticating proxy in front\n",
                     qPrintable(hostText(http.serverAddress())));
    std::fflush(stderr);
}

// Scrapes stop with the probes; what the store still holds is committed before the exit,
// unless the store keeps refusing it for longer than the stop may take.
int stopServing(serve::ScrapeServer& http, Collector& collector, int stopTimeoutMs, int exitCode)
{
    http.close();
    const qint64 lost = QCoro::waitFor(collector.stop(stopTimeoutMs));
    if (lost > 0) {
        std::fprintf(stderr,
                     "switchyard serve: %lld store writes lost: %s refused them until the stop "
                     "gave up (--stop-timeout %g s)\n",
                     static_cast<long long>(lost), qPrintable(collector.store()->path()),
                     stopTimeoutMs / 1000.0);
        return kExitWritesLost;
    }
    if (const qint64 refused = collector.refusedWrites(); refused > 0) {
        std::fprintf(stderr,
                     "switchyard serve: %lld store writes were refused and are not stored "
                     "(logged above); the rest committed\n",
                     static_cast<long long>(refused));
        return kExitWritesLost;
    }
    std::fprintf(stderr, "switchyard serve: every queued store write committed\n");
    return exitCode;
}

} // namespace

// `switchyard serve`: the pool probed, tracked transactions polled and everything recorded into
// the store, without a window, for Prometheus and for a service manager.
int runServe(const QStringList& arguments)
{
    ServeRequest request;
    if (const std::optional<int> exit = readServeRequest(arguments, &request))
        return *exit;
    serve::ScrapeServer http(scrapeLimits(request.idleTimeoutMs));
    if (!http.listen(request.listen.address, request.listen.port))
        return fail(ExitConfigError, QStringLiteral("--listen %1: cannot listen: %2")
                                         .arg(request.listenText, http.errorString()));
    app::TerminationSignals termination;
    Collector collector(Clock::system());
    if (const std::optional<int> exit = openCollectorStore(collector, request.databasePath))
        return *exit;

    metrics::PoolMetrics poolMetrics(&collector.pools(), Clock::system());
    poolMetrics.watchStore(&collector.store()->writer());
    poolMetrics.watchTracker(collector.store()->tracker());
    bool ready = false;
    QObject::connect(&collector.pools(), &PoolManager::probeFinished, &collector.pools(),
                     [&] { ready = ready || firstRoundDone(collector.pools()); });
    routeScrapes(http, poolMetrics, collector, ready);

    int exitCode = ExitOk;
    watchTheLease(collector, &exitCode);
    collector.startAsTheStoresCollector(request.config);
    ready = collector.isCollecting() && firstRoundDone(collector.pools());
    collector.watchConfig(request.configPath, request.configContents);
    stopOnTerminationSignals(termination);
    announceListening(http, request.configPath, collector.store()->path());
    QCoreApplication::exec();
    return stopServing(http, collector, request.stopTimeoutMs, exitCode);
}

} // namespace switchyard::cli
