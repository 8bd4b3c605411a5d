// The running app takes a changed config file over, and keeps the old one when the new one
// does not load.
#include "config/configwatcher.h"

#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace switchyard;

namespace {

QByteArray configWithNode(const QString& nodeName)
{
    return QStringLiteral("{\"networks\":[{\"name\":\"local\",\"family\":\"evm\",\"chainId\":1,"
                          "\"nodes\":[{\"name\":\"%1\",\"url\":\"http://127.0.0.1:8545\"}]}]}")
        .arg(nodeName)
        .toUtf8();
}

void writeInPlace(const QString& path, const QByteArray& contents)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(contents);
}

void writeByRename(const QString& path, const QByteArray& contents)
{
    QSaveFile file(path); // a new file renamed over the old one, as many editors save
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(contents);
    QVERIFY(file.commit());
}

// Puts `kind` in the place of the file at `path` as a save does: made beside it, renamed over it.
bool replaceBy(const QString& path, const QString& kind)
{
    const QString beside = path + QStringLiteral(".new");
    const QByteArray name = QFile::encodeName(beside);
    bool made = false;
    if (kind == u"fifo") {
        made = ::mkfifo(name.constData(), 0600) == 0;
    } else if (kind == u"zero") {
        made = QFile::link(QStringLiteral("/dev/zero"), beside);
    } else if (kind == u"big") {
        QFile file(beside);
        made = file.open(QIODevice::WriteOnly) && file.resize(6 * 1024 * 1024);
    }
    return made && ::rename(name.constData(), QFile::encodeName(path).constData()) == 0;
}

// A reader stuck opening the named pipe at `path` (waiting for a writer that never comes) is let
// go after a while, so a watcher that waits fails its test instead of hanging it.
class PipeReleaser
{
public:
    explicit PipeReleaser(const QString& path)
        : m_thread([this, name = QFile::encodeName(path)] {
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            while (!m_done && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (!m_done) {
                const int fd = ::open(name.constData(), O_WRONLY | O_NONBLOCK);
                if (fd >= 0)
                    ::close(fd);
            }
        })
    {}
    ~PipeReleaser()
    {
        m_done = true;
        m_thread.join();
    }

private:
    std::atomic<bool> m_done = false;
    std::thread m_thread;
};

} // namespace

class TestConfigWatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void changedFileIsLoaded_data()
    {
        QTest::addColumn<bool>("byRename");
        QTest::newRow("written in place") << false;
        QTest::newRow("renamed over") << true;
    }

    void changedFileIsLoaded()
    {
        QFETCH(bool, byRename);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        writeInPlace(path, configWithNode(QStringLiteral("first")));
        ConfigWatcher watcher(path, configWithNode(QStringLiteral("first")));
        QSignalSpy reloaded(&watcher, &ConfigWatcher::reloaded);

        for (const QString& name : {QStringLiteral("second"), QStringLiteral("third")}) {
            byRename ? writeByRename(path, configWithNode(name))
                     : writeInPlace(path, configWithNode(name));
            QVERIFY(reloaded.wait(5000));
            QCOMPARE(reloaded.last().first().value<Config>().networks.first().nodes.first().name,
                     name);
        }
        QCOMPARE(reloaded.count(), 2);
    }

    void unchangedContentsDoNotReload()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        writeInPlace(path, configWithNode(QStringLiteral("same")));
        ConfigWatcher watcher(path, configWithNode(QStringLiteral("same")));
        QSignalSpy reloaded(&watcher, &ConfigWatcher::reloaded);
        QSignalSpy rejected(&watcher, &ConfigWatcher::rejected);
        writeByRename(path, configWithNode(QStringLiteral("same")));
        // Then a real change, so the test knows the watcher has seen both events.
        writeByRename(path, configWithNode(QStringLiteral("changed")));
        QVERIFY(reloaded.wait(5000));
        QCOMPARE(reloaded.count(), 1);
        QCOMPARE(rejected.count(), 0);
    }

    void brokenFileIsRejectedWithItsPosition()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        writeInPlace(path, configWithNode(QStringLiteral("good")));
        ConfigWatcher watcher(path, configWithNode(QStringLiteral("good")));
        QSignalSpy reloaded(&watcher, &ConfigWatcher::reloaded);
        QSignalSpy rejected(&watcher, &ConfigWatcher::rejected);
        writeByRename(path, "{\n  \"networks\": [,]\n}");
        QVERIFY(rejected.wait(5000));
        QVERIFY2(rejected.first().first().toString().contains(path + QStringLiteral(":2:")),
                 qPrintable(rejected.first().first().toString()));
        QCOMPARE(reloaded.count(), 0);
    }

    // The window and serve reload through this: a named pipe, a link to /dev/zero or a file over
    // 4 MiB in the config's place is refused with why, the running config stays, and the next
    // good file loads (the pipe once froze the event loop; /dev/zero grew it to bad_alloc).
    void unreadableReplacementIsRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected"); // after "PATH: "
        const QString regularOnly = QStringLiteral(
            "; expected a regular file (a running process loads a changed config only from one: a "
            "pipe or device could hold it or never end)");
        QTest::newRow("named pipe") << "fifo"
                                    << "a named pipe" + regularOnly;
        QTest::newRow("link to /dev/zero") << "zero"
                                           << "a device" + regularOnly;
        QTest::newRow("6 MiB file") << "big"
                                    << "expected a config file of at most 4 MiB, got 6291456 "
                                       "bytes";
    }

    void unreadableReplacementIsRefused()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config.json"));
        writeInPlace(path, configWithNode(QStringLiteral("first")));
        ConfigWatcher watcher(path, configWithNode(QStringLiteral("first")));
        QSignalSpy reloaded(&watcher, &ConfigWatcher::reloaded);
        QSignalSpy rejected(&watcher, &ConfigWatcher::rejected);

        QVERIFY(replaceBy(path, kind));
        {
            const PipeReleaser releaser(path);
            QVERIFY(rejected.wait(5000));
        }
        QCOMPARE(rejected.first().first().toString(), path + QStringLiteral(": ") + expected);
        QCOMPARE(reloaded.count(), 0);
        rusage usage = {};
        QCOMPARE(::getrusage(RUSAGE_SELF, &usage), 0);
        constexpr long boundKiB = 256 * 1024; // generous: the test process is about 30 MB
        QVERIFY2(usage.ru_maxrss < boundKiB,
                 qPrintable(QStringLiteral("peak RSS %1 KiB").arg(usage.ru_maxrss)));

        // Renamed over the link itself: QSaveFile would follow it and replace /dev/zero.
        const QString good = path + QStringLiteral(".good");
        writeInPlace(good, configWithNode(QStringLiteral("second")));
        QVERIFY(::rename(QFile::encodeName(good).constData(),
                         QFile::encodeName(path).constData()) == 0);
        QVERIFY(reloaded.wait(5000));
        QCOMPARE(reloaded.last().first().value<Config>().networks.first().nodes.first().name,
                 QStringLiteral("second"));
        QCOMPARE(rejected.count(), 1);
    }
};

QTEST_GUILESS_MAIN(TestConfigWatcher)
#include "tst_configwatcher.moc"
