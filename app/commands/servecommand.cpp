#include "config/configloader.h"
#include "metrics/metricswriter.h"
#include "metrics/poolmetrics.h"
#include "pool/networkpool.h"
#include "pool/poolcheck.h"
#include "pool/poolmanager.h"
#include "recording/collector.h"
#include "recording/storesession.h"
#include "store/database.h"
#include "subcommand.h"
#include "terminationsignals.h"
#include "util/clock.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerResponse>
#include <QJsonDocument>
#include <QTcpServer>
#include <csignal>
#include <cstdio>
#include <optional>
#include <qcorotask.h>

namespace switchyard::cli {

namespace {

constexpr quint16 kDefaultPort = 9464;

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

QHttpServerResponse textResponse(const QByteArray& body, QHttpServerResponse::StatusCode status)
{
    return QHttpServerResponse(QByteArrayLiteral("text/plain; charset=utf-8"), body, status);
}

} // namespace

// `switchyard serve`: the pool probed, tracked transactions polled and everything recorded into
// the store, without a window, for Prometheus and for a service manager.
int runServe(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Watches the pool without a window: probes every node, follows tracked "
                       "transactions, records into the store, and answers /metrics (Prometheus), "
                       "/healthz and /readyz over HTTP. Ends on SIGTERM or SIGINT once every "
                       "queued store write is committed."));
    parser.addHelpOption();
    const QCommandLineOption configOption(
        QStringLiteral("config"),
        QStringLiteral("Node configuration (JSON). Default: %1").arg(defaultConfigPath()),
        QStringLiteral("FILE"));
    const QCommandLineOption dbOption(
        QStringLiteral("db"),
        QStringLiteral("The event and transaction store (SQLite). Default: %1")
            .arg(store::defaultDatabasePath()),
        QStringLiteral("FILE"));
    const QCommandLineOption listenOption(
        QStringLiteral("listen"),
        QStringLiteral("Address and port of the HTTP endpoints. Default: 127.0.0.1:%1")
            .arg(kDefaultPort),
        QStringLiteral("ADDR:PORT"));
    parser.addOptions({configOption, dbOption, listenOption});
    if (!parser.parse(arguments))
        return fail(ExitUsage,
                    parser.errorText() + QStringLiteral(" (see switchyard serve --help)"));
    if (parser.isSet(QStringLiteral("help"))) {
        std::printf("%s", qPrintable(parser.helpText()));
        return ExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(ExitUsage, QStringLiteral("unexpected argument '%1'")
                                   .arg(parser.positionalArguments().constFirst()));
    const QString listenText = parser.isSet(listenOption)
                                   ? parser.value(listenOption)
                                   : QStringLiteral("127.0.0.1:%1").arg(kDefaultPort);
    const std::optional<ListenAddress> listen = parseListen(listenText);
    if (!listen)
        return fail(ExitUsage, QStringLiteral("--listen %1: expected ADDR:PORT, e.g. "
                                              "127.0.0.1:%2 or [::1]:%2")
                                   .arg(listenText)
                                   .arg(kDefaultPort));

    // Everything that can refuse is tried before anything starts: nothing half-started.
    const QString configPath =
        parser.isSet(configOption) ? parser.value(configOption) : defaultConfigPath();
    QFile configFile(configPath);
    if (!configFile.open(QIODevice::ReadOnly))
        return fail(
            ExitConfigError,
            QStringLiteral("%1: cannot open: %2").arg(configPath, configFile.errorString()));
    const QByteArray configContents = configFile.readAll();
    const ConfigResult loaded = loadConfigText(configContents, configPath);
    if (!loaded.ok())
        return fail(ExitConfigError, loaded.errorText());

    auto* socket = new QTcpServer;
    if (!socket->listen(listen->address, listen->port)) {
        const QString error =
            QStringLiteral("--listen %1: cannot listen: %2").arg(listenText, socket->errorString());
        delete socket;
        return fail(ExitConfigError, error);
    }
    QHttpServer http;
    http.bind(socket); // takes it

    app::TerminationSignals termination;
    Collector collector(Clock::system());
    const QString databasePath =
        parser.isSet(dbOption) ? parser.value(dbOption) : store::defaultDatabasePath();
    QString storeError;
    if (!collector.openStore(databasePath, &storeError))
        return fail(ExitConfigError, storeError);

    metrics::PoolMetrics poolMetrics(&collector.pools(), Clock::system());
    poolMetrics.watchStore(&collector.store()->writer());
    poolMetrics.watchTracker(collector.store()->tracker());
    bool ready = false;
    QObject::connect(&collector.pools(), &PoolManager::probeFinished, &collector.pools(),
                     [&] { ready = ready || firstRoundDone(collector.pools()); });

    http.route(QStringLiteral("/metrics"), [&poolMetrics] {
        return QHttpServerResponse(QByteArray(metrics::MetricsWriter::contentType),
                                   poolMetrics.render());
    });
    http.route(QStringLiteral("/healthz"), [&collector] {
        QList<NetworkCheck> checks;
        for (const std::shared_ptr<NetworkPool>& pool : collector.pools().pools())
            checks.append(checkNetwork(*pool));
        const bool healthy = worstStatus(checks) != CheckStatus::Critical;
        return QHttpServerResponse(
            QByteArrayLiteral("application/json"),
            QJsonDocument(checkReport(checks)).toJson(QJsonDocument::Compact),
            healthy ? QHttpServerResponse::StatusCode::Ok
                    : QHttpServerResponse::StatusCode::ServiceUnavailable);
    });
    http.route(QStringLiteral("/readyz"), [&ready] {
        return ready ? textResponse("ready\n", QHttpServerResponse::StatusCode::Ok)
                     : textResponse("first probe round not finished\n",
                                    QHttpServerResponse::StatusCode::ServiceUnavailable);
    });

    collector.start(loaded.config());
    ready = firstRoundDone(collector.pools());
    collector.watchConfig(configPath, configContents);
    QObject::connect(&termination, &app::TerminationSignals::received, [](int signalNumber) {
        const char* name = signalNumber == SIGINT   ? "SIGINT"
                           : signalNumber == SIGHUP ? "SIGHUP"
                                                    : "SIGTERM";
        std::fprintf(stderr, "switchyard serve: %s: stopping\n", name);
        QCoreApplication::quit();
    });
    std::fprintf(stderr, "switchyard serve: listening on http://%s:%u (config %s, store %s)\n",
                 qPrintable(socket->serverAddress().protocol() == QAbstractSocket::IPv6Protocol
                                ? QStringLiteral("[%1]").arg(socket->serverAddress().toString())
                                : socket->serverAddress().toString()),
                 unsigned(socket->serverPort()), qPrintable(configPath),
                 qPrintable(collector.store()->path()));
    std::fflush(stderr);
    QCoreApplication::exec();

    // Scrapes stop with the probes; what the store still holds is committed before the exit.
    socket->close();
    QCoro::waitFor(collector.stop());
    if (const qint64 refused = collector.refusedWrites(); refused > 0) {
        std::fprintf(stderr,
                     "switchyard serve: %lld store writes were refused and are not stored "
                     "(logged above); the rest committed\n",
                     static_cast<long long>(refused));
        return ExitConfigError;
    }
    std::fprintf(stderr, "switchyard serve: every queued store write committed\n");
    return ExitOk;
}

} // namespace switchyard::cli
