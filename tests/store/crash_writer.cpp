// Child of tst_crashcampaign: appends to the store as fast as it can and prints a record's key
// only once the writer acknowledged it. The test kills it with SIGKILL at a random moment.
//   crash_writer <database> <run>
// stdout: "ready" once the first record is stored, then "E <key>" for an event, "T <key>" for a
// tracked transaction (wire = sha256(key)).
#include "store/database.h"
#include "store/storewriter.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QTimer>
#include <cstdio>
#include <deque>

using namespace switchyard;
using namespace switchyard::store;

namespace {

constexpr int perTick = 50;
constexpr quint64 maxOutstanding = 500;

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 3) {
        std::fprintf(stderr, "usage: crash_writer <database> <run>\n");
        return 2;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    const QString run = QString::fromLocal8Bit(argv[2]);
    OpenResult opened = Database::open(path);
    if (!opened.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(opened.error));
        return 2;
    }
    StoreWriter writer(*opened.database);
    std::deque<std::pair<quint64, QByteArray>> unacknowledged;
    quint64 sequence = 0;

    QTimer pump;
    QObject::connect(&writer, &StoreWriter::committed, &app, [&](quint64 ticket) {
        QByteArray lines;
        if (!pump.isActive()) {
            lines += "ready\n";
            pump.start(0);
        }
        while (!unacknowledged.empty() && unacknowledged.front().first <= ticket) {
            lines += unacknowledged.front().second + '\n';
            unacknowledged.pop_front();
        }
        std::fwrite(lines.constData(), 1, static_cast<size_t>(lines.size()), stdout);
        std::fflush(stdout);
    });
    QObject::connect(&writer, &StoreWriter::rejected, &app, [](quint64, const QString& error) {
        std::fprintf(stderr, "rejected: %s\n", qPrintable(error));
        std::exit(3);
    });

    const auto appendBurst = [&](int records) {
        for (int i = 0; i < records; ++i) {
            const QString key = QStringLiteral("r%1-%2").arg(run).arg(++sequence);
            IncidentEvent event;
            event.time = QDateTime::currentDateTimeUtc();
            event.kind = IncidentEvent::Kind::NodeState;
            event.txId = key;
            event.message = QStringLiteral("crash campaign");
            unacknowledged.emplace_back(writer.appendEvent(event), "E " + key.toUtf8());
            if (sequence % 10 != 0)
                continue;
            StoredTransaction tx;
            tx.id = key;
            tx.network = QStringLiteral("crashnet");
            tx.wire = QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha256);
            tx.state = QStringLiteral("Imported");
            tx.createdMs = event.time.toMSecsSinceEpoch();
            tx.stateSinceMs = tx.createdMs;
            unacknowledged.emplace_back(
                writer.submit([tx](QSqlDatabase& db) { return saveTransaction(db, tx); }),
                "T " + key.toUtf8());
        }
    };

    QObject::connect(&pump, &QTimer::timeout, &app, [&] {
        if (writer.lastTicket() - writer.acknowledgedTicket() < maxOutstanding)
            appendBurst(perTick);
    });
    // One record first: the test's random delay starts once the child is storing.
    appendBurst(1);
    return app.exec();
}
