// The configuration's `alerts` object: defaults, every key read, every mistake named by its key.
#include "config/configfields.h"
#include "config/configloader.h"
#include "config/configwriter.h"

#include <QSet>
#include <QTest>

using namespace switchyard;

namespace {

QByteArray withAlerts(const QByteArray& alerts)
{
    return R"({"networks": [], "alerts": )" + alerts + "}";
}

bool hasError(const ConfigResult& result, const QString& path, const QString& message)
{
    for (const ConfigError& error : result.errors()) {
        if (error.jsonPath == path && error.message == message)
            return true;
    }
    return false;
}

} // namespace

class TestAlertConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultsWithoutTheObject()
    {
        const ConfigResult result = loadConfigText(R"({"networks": []})", "config.json", {});
        QVERIFY2(result.ok(), qPrintable(result.errorText()));
        const AlertRules rules = result.config().alerts;
        QCOMPARE(rules, AlertRules());
        QCOMPARE(rules.muteMinutes, 30);
        QVERIFY(rules.noEligibleNode.enabled);
        QCOMPARE(rules.fallbackActive.afterS, 120);
        QCOMPARE(rules.transportUnknown.afterS, 60);
        QCOMPARE(rules.nearExpiry.blocksLeft, 50);
    }

    void readsEveryKey()
    {
        const ConfigResult result = loadConfigText(withAlerts(R"({
            "muteMinutes": 10,
            "noEligibleNode": {"enabled": false},
            "wrongNetwork": {"cooldownS": 0},
            "fallbackActive": {"afterS": 30, "cooldownS": 900},
            "transportUnknown": {"afterS": 5},
            "nearExpiry": {"blocksLeft": 20, "enabled": true}})"),
                                                   "config.json", {});
        QVERIFY2(result.ok(), qPrintable(result.errorText()));
        const AlertRules rules = result.config().alerts;
        QCOMPARE(rules.muteMinutes, 10);
        QVERIFY(!rules.noEligibleNode.enabled);
        QCOMPARE(rules.noEligibleNode.cooldownS, 300);
        QCOMPARE(rules.wrongNetwork.cooldownS, 0);
        QCOMPARE(rules.fallbackActive.afterS, 30);
        QCOMPARE(rules.fallbackActive.cooldownS, 900);
        QCOMPARE(rules.transportUnknown.afterS, 5);
        QCOMPARE(rules.nearExpiry.blocksLeft, 20);
    }

    void mistakesNameTheKey_data()
    {
        QTest::addColumn<QByteArray>("alerts");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");

        QTest::newRow("not an object")
            << QByteArray("true") << "alerts"
            << "expected an object with muteMinutes, noEligibleNode, wrongNetwork, diverged, "
               "fallbackActive, transportUnknown, nearExpiry, got true";
        QTest::newRow("unknown rule")
            << QByteArray(R"({"nearExpiri": {}})") << "alerts.nearExpiri"
            << "unknown key (did you mean \"nearExpiry\"?); expected one of: muteMinutes, "
               "noEligibleNode, wrongNetwork, diverged, fallbackActive, transportUnknown, "
               "nearExpiry";
        QTest::newRow("rule not an object")
            << QByteArray(R"({"wrongNetwork": false})") << "alerts.wrongNetwork"
            << "expected an object with enabled, cooldownS, got false";
        QTest::newRow("afterS where it means nothing")
            << QByteArray(R"({"wrongNetwork": {"afterS": 5}})") << "alerts.wrongNetwork.afterS"
            << "unknown key; expected one of: enabled, cooldownS";
        QTest::newRow("blocksLeft only for nearExpiry")
            << QByteArray(R"({"fallbackActive": {"blocksLeft": 5}})")
            << "alerts.fallbackActive.blocksLeft"
            << "unknown key; expected one of: enabled, cooldownS, afterS";
        QTest::newRow("negative cooldown")
            << QByteArray(R"({"transportUnknown": {"cooldownS": -1}})")
            << "alerts.transportUnknown.cooldownS"
            << "expected a non-negative integer, got -1";
        QTest::newRow("cooldown in text")
            << QByteArray(R"({"transportUnknown": {"cooldownS": "5m"}})")
            << "alerts.transportUnknown.cooldownS"
            << "expected a non-negative integer, got a string";
        QTest::newRow("fractional afterS") << QByteArray(R"({"fallbackActive": {"afterS": 1.5}})")
                                           << "alerts.fallbackActive.afterS"
                                           << "expected a non-negative integer, got 1.5";
        QTest::newRow("zero blocks")
            << QByteArray(R"({"nearExpiry": {"blocksLeft": 0}})") << "alerts.nearExpiry.blocksLeft"
            << "expected a positive integer, got 0";
        QTest::newRow("enabled as a word")
            << QByteArray(R"({"nearExpiry": {"enabled": "yes"}})") << "alerts.nearExpiry.enabled"
            << "expected true or false, got a string";
        QTest::newRow("mute of zero minutes")
            << QByteArray(R"({"muteMinutes": 0})") << "alerts.muteMinutes"
            << "expected a positive integer, got 0";
        QTest::newRow("mute longer than a day")
            << QByteArray(R"({"muteMinutes": 1441})") << "alerts.muteMinutes"
            << "expected a positive integer up to 1440, got 1441";
    }

    void mistakesNameTheKey()
    {
        QFETCH(QByteArray, alerts);
        QFETCH(QString, path);
        QFETCH(QString, message);
        const ConfigResult result = loadConfigText(withAlerts(alerts), "config.json", {});
        QVERIFY2(!result.ok(), "a bad alerts object must not load");
        QVERIFY2(hasError(result, path, message), qPrintable(result.errorText()));
        QVERIFY(result.errorText().contains(QStringLiteral("config.json: ") + path));
    }

    // What the editor saves keeps the rules the file set, and adds none it did not.
    void saveKeepsChangedRulesOnly()
    {
        Config config;
        QVERIFY(!configToJson(config).contains("alerts"));
        config.alerts.nearExpiry.blocksLeft = 12;
        config.alerts.muteMinutes = 5;
        const QByteArray text = configToJson(config);
        QVERIFY(!text.contains("wrongNetwork"));
        const ConfigResult reread = loadConfigText(text, "config.json", {});
        QVERIFY2(reread.ok(), qPrintable(reread.errorText()));
        QCOMPARE(reread.config().alerts, config.alerts);
    }

    // Each settings key the editor offers (configFields) is one member of the config: a value
    // put there is saved under that key and loaded back there, and no two keys share one.
    void everySettingKeyIsItsOwnMember()
    {
        int settings = 0;
        Config shared;
        QSet<const void*> members;
        for (const ConfigField& field : configFields()) {
            // `db`, the one text setting, is saved and loaded back in tst_networkseditor.
            if (field.key.startsWith(QLatin1String("networks[]")) || field.key == u"db")
                continue;
            const void* member = integerSetting(shared, field.key);
            members << (member ? member : switchSetting(shared, field.key));
        }
        for (const ConfigField& field : configFields()) {
            // `db`, the one text setting, is saved and loaded back in tst_networkseditor.
            if (field.key.startsWith(QLatin1String("networks[]")) || field.key == u"db")
                continue;
            ++settings;
            Config config;
            int* number = integerSetting(config, field.key);
            bool* toggle = switchSetting(config, field.key);
            QVERIFY2((number != nullptr) != (toggle != nullptr), qPrintable(field.key));
            const Config untouched = config;
            // A value inside every key's limits that differs from every default.
            if (number)
                *number = 1001;
            else
                *toggle = !*toggle;
            QVERIFY2(config != untouched, qPrintable(field.key));
            const ConfigResult reread = loadConfigText(configToJson(config), "config.json", {});
            QVERIFY2(reread.ok(),
                     qPrintable(QString(field.key + QStringLiteral(": ") + reread.errorText())));
            Config back = reread.config();
            if (number)
                QCOMPARE(*integerSetting(back, field.key), 1001);
            else
                QCOMPARE(*switchSetting(back, field.key), *toggle);
            QCOMPARE(back, config);
        }
        // probe (6), reconfigureGraceMs, probeFromThisDesk, muteMinutes and the rules' 2 + 2 +
        // 3 + 3 + 3 + 2.
        QCOMPARE(settings, 24);
        QCOMPARE(members.size(), settings);
    }
};

QTEST_GUILESS_MAIN(TestAlertConfig)
#include "tst_alertconfig.moc"
