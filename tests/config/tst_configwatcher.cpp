// The running app takes a changed config file over, and keeps the old one when the new one
// does not load.
#include "config/configwatcher.h"

#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

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
};

QTEST_GUILESS_MAIN(TestConfigWatcher)
#include "tst_configwatcher.moc"
