#include "config/configloader.h"
#include "config/redaction.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace switchyard;

namespace {

const QString mark = QStringLiteral("\u2022\u2022\u2022");

QString r(const char* text)
{
    return QString::fromUtf8(text).replace(QStringLiteral("***"), mark);
}

const QString planted = QStringLiteral("PLANTEDs3cr3tKEY0123456789");

} // namespace

class TestRedaction : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void redactedUrl_data();
    void redactedUrl();
    void ordinaryUrlsStayReadable_data();
    void ordinaryUrlsStayReadable();
    void invalidAndEmptyUrls();
    void redactedUrlTextKeepsVariableReferences();

    void secretTokens_data();
    void secretTokens();

    void headers();

    void scrubsQtNetworkErrorString();
    void scrubsEveryFormOfTheSecrets_data();
    void scrubsEveryFormOfTheSecrets();
    void plantedSecretNeverAppears_data();
    void plantedSecretNeverAppears();
    void scrubLeavesOrdinaryTextAlone();
    void scrubReplacesLongestFirst();
};

void TestRedaction::redactedUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("expected");

    QTest::newRow("query value") << "https://rpc.example.com/?api-key=abc"
                                 << r("https://rpc.example.com/?api-key=***");
    QTest::newRow("every query value") << "https://h.example/rpc?a=1&b=two&empty=&flag"
                                       << r("https://h.example/rpc?a=***&b=***&empty=&flag");
    QTest::newRow("encoded query value")
        << "https://h.example/?k=a%26b%3Dc&x=1" << r("https://h.example/?k=***&x=***");
    QTest::newRow("key as bare query item")
        << "https://h.example/?0123456789abcdef0123" << r("https://h.example/?***");
    QTest::newRow("userinfo") << "https://user:pa55word@h.example:8443/rpc"
                              << r("https://***@h.example:8443/rpc");
    QTest::newRow("user only") << "https://apikey@h.example/" << r("https://***@h.example/");
    QTest::newRow("alchemy")
        << "https://eth-mainnet.g.alchemy.com/v2/aBcD3fGh1jKlMn0pQrStUv-wXyZ_1234"
        << r("https://eth-mainnet.g.alchemy.com/v2/***");
    QTest::newRow("alchemy short demo key")
        << "https://eth-mainnet.g.alchemy.com/v2/abc123def456ghi789"
        << r("https://eth-mainnet.g.alchemy.com/v2/***");
    QTest::newRow("infura") << "https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef"
                            << r("https://mainnet.infura.io/v3/***");
    QTest::newRow("quicknode") << "https://young-wild-sea.solana-mainnet.quiknode.pro/"
                                  "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678/"
                               << r("https://young-wild-sea.solana-mainnet.quiknode.pro/***/");
    QTest::newRow("uuid") << "https://rpc.example.com/solana/123e4567-e89b-12d3-a456-426614174000"
                          << r("https://rpc.example.com/solana/***");
    QTest::newRow("base58 letters only") << "https://rpc.example.com/KxQzPwRtYuVbNmLkJhGfDsAq/rpc"
                                         << r("https://rpc.example.com/***/rpc");
    QTest::newRow("hex without digits")
        << "https://rpc.example.com/deadbeefcafebabe" << r("https://rpc.example.com/***");
    QTest::newRow("key in host label")
        << "https://abc123def456ghi789jk.rpc.example.com/" << r("https://***.rpc.example.com/");
    QTest::newRow("fragment dropped")
        << "https://rpc.example.com/rpc#token=abc" << r("https://rpc.example.com/rpc");
    QTest::newRow("all at once")
        << "https://u:p@rpc.example.com:8443/v3/0123456789abcdef0123456789abcdef?api-key=k#f"
        << r("https://***@rpc.example.com:8443/v3/***?api-key=***");
}

void TestRedaction::redactedUrl()
{
    QFETCH(QString, url);
    QFETCH(QString, expected);
    QCOMPARE(switchyard::redactedUrl(QUrl(url)), expected);
}

void TestRedaction::ordinaryUrlsStayReadable_data()
{
    QTest::addColumn<QString>("url");
    for (const char* url :
         {"https://api.devnet.solana.com", "https://api.mainnet-beta.solana.com/",
          "http://127.0.0.1:8545", "http://[::1]:8899/rpc", "https://rpc.example.com/rpc",
          "https://eth-mainnet.g.alchemy.com/v2", "https://rpc.example.com/solana-mainnet",
          "https://api.avax.network/ext/bc/C/rpc", "https://polygon-rpc.com/",
          "https://arbitrum-sepolia.example.org/v1/mainnet", "https://rpc.example.com/a%20b",
          "https://rpc.example.com/MyCompanyMainnetEndpoint"})
        QTest::newRow(url) << QString::fromLatin1(url);
}

void TestRedaction::ordinaryUrlsStayReadable()
{
    QFETCH(QString, url);
    QCOMPARE(switchyard::redactedUrl(QUrl(url)), QUrl(url).toString());
}

void TestRedaction::invalidAndEmptyUrls()
{
    QCOMPARE(switchyard::redactedUrl(QUrl()), QString());
    const QUrl invalid(QStringLiteral("http://127.0.0.1:99999999/?k=") + planted);
    QVERIFY(!invalid.isValid());
    QCOMPARE(switchyard::redactedUrl(invalid), mark);
}

void TestRedaction::redactedUrlTextKeepsVariableReferences()
{
    QCOMPARE(redactedUrlText("https://rpc.example.com/?api-key=${BACKUP_KEY}"),
             r("https://rpc.example.com/?api-key=***"));
    QCOMPARE(redactedUrlText("https://rpc.example.com/v2/${ALCHEMY_KEY}"),
             "https://rpc.example.com/v2/${ALCHEMY_KEY}");
    QCOMPARE(redactedUrlText("http://127.0.0.1:${PORT}/x"), "http://127.0.0.1:${PORT}/x");
    QCOMPARE(redactedUrlText("ftp://x"), "ftp://x");
    QCOMPARE(redactedUrlText("https://rpc.example.com/v3/" + planted),
             r("https://rpc.example.com/v3/***"));
}

void TestRedaction::secretTokens_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<bool>("secret");

    QTest::newRow("rpc") << "rpc" << false;
    QTest::newRow("v2") << "v2" << false;
    QTest::newRow("solana-mainnet") << "solana-mainnet" << false;
    QTest::newRow("long words") << "solana-mainnet-beta-archive" << false;
    QTest::newRow("camel words") << "MyCompanyMainnetEndpoint" << false;
    QTest::newRow("short mix") << "abc123" << false;
    QTest::newRow("digits with dots") << "1.2.3.4.5.6.7.8.9" << false;
    QTest::newRow("text with spaces") << "this is not 1 key at all" << false;
    QTest::newRow("letters and digits") << "abc123def456ghi789" << true;
    QTest::newRow("hex 32") << "0123456789abcdef0123456789abcdef" << true;
    QTest::newRow("long number") << "12345678901234567890" << true;
    QTest::newRow("uuid") << "123e4567-e89b-12d3-a456-426614174000" << true;
    QTest::newRow("base58 mixed case") << "KxQzPwRtYuVbNmLkJhGfDsAq" << true;
    QTest::newRow("planted") << planted << true;
}

void TestRedaction::secretTokens()
{
    QFETCH(QString, token);
    QFETCH(bool, secret);
    QCOMPARE(looksLikeSecretToken(token), secret);
}

void TestRedaction::headers()
{
    QCOMPARE(redactedHeaderValue("Authorization", "Bearer " + planted.toUtf8()), mark);
    QCOMPARE(redactedHeaderValue("X-Api-Key", "k"), mark);
    QCOMPARE(redactedHeaderValue("X-Empty", ""), QString());
    QCOMPARE(redactedHeader("Authorization", "Bearer " + planted.toUtf8()),
             r("Authorization: ***"));
    QCOMPARE(redactedHeader(HttpHeader{"X-Api-Key", planted.toUtf8(), "${KEY}"}),
             r("X-Api-Key: ***"));
}

void TestRedaction::scrubsQtNetworkErrorString()
{
    // A real QNetworkReply error names the full URL; a local server that closes at once
    // produces one without any internet.
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    connect(&server, &QTcpServer::newConnection, &server, [&server] {
        while (QTcpSocket* socket = server.nextPendingConnection()) {
            socket->write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: "
                          "close\r\n\r\n");
            socket->disconnectFromHost();
        }
    });

    QProcessEnvironment env;
    env.insert("KEY", planted);
    const QByteArray text = R"({"networks": [{"name": "eth", "family": "evm", "chainId": 1,
        "nodes": [{"name": "a", "url": "http://127.0.0.1:)" +
                            QByteArray::number(server.serverPort()) +
                            R"(/v2/${KEY}?api-key=${KEY}"}]}]})";
    const ConfigResult result = loadConfigText(text, "config.json", env);
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    const QUrl url = result.config().networks[0].nodes[0].url;

    QNetworkAccessManager nam;
    std::unique_ptr<QNetworkReply> reply(nam.get(QNetworkRequest(url)));
    QSignalSpy finished(reply.get(), &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    const QString error = reply->errorString();
    QVERIFY2(error.contains(planted), "the test needs an error string that quotes the URL");

    const SecretScrubber scrubber(result.config());
    const QString scrubbed = scrubber.scrub(error);
    QVERIFY2(!scrubbed.contains(planted), qPrintable(scrubbed));
    QVERIFY2(
        scrubbed.contains(r("http://127.0.0.1:%1/v2/***?api-key=***").arg(server.serverPort())),
        qPrintable(scrubbed));
}

void TestRedaction::scrubsEveryFormOfTheSecrets_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");

    QTest::newRow("full url")
        << "Error transferring https://rpc.example.com/?api-key=bk_9f8e7d6c5b4a3210 - server "
           "replied: Forbidden"
        << r("Error transferring https://rpc.example.com/?api-key=*** - server replied: "
             "Forbidden");
    QTest::newRow("env value alone") << "invalid key bk_9f8e7d6c5b4a3210." << r("invalid key ***.");
    QTest::newRow("header token alone")
        << "token tok-ABCDEF0123456789 expired" << r("token *** expired");
    QTest::newRow("header value") << "sent Authorization: Bearer tok-ABCDEF0123456789"
                                  << r("sent Authorization: ***");
    QTest::newRow("userinfo") << "connect to https://alice:hunter22@auth.example.com/ failed"
                              << r("connect to https://***@auth.example.com/ failed");
    QTest::newRow("password alone") << "password hunter22 rejected" << r("password *** rejected");
    QTest::newRow("path key") << "GET /v3/0123456789abcdef0123456789abcdef: 401"
                              << r("GET /v3/***: 401");
    QTest::newRow("literal query key alone") << "key abcdef: denied" << r("key ***: denied");
    QTest::newRow("query item in context") << "sent cluster=devnet" << r("sent cluster=***");
    QTest::newRow("ordinary query value elsewhere") << "network solana-devnet is up"
                                                    << "network solana-devnet is up";
}

void TestRedaction::scrubsEveryFormOfTheSecrets()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);

    QProcessEnvironment env;
    env.insert("BACKUP_KEY", "bk_9f8e7d6c5b4a3210");
    env.insert("TOKEN", "tok-ABCDEF0123456789");
    const QByteArray config = R"({"networks": [{"name": "eth", "family": "evm", "chainId": 1,
        "nodes": [
          {"name": "a", "url": "https://rpc.example.com/?api-key=${BACKUP_KEY}",
           "headers": {"Authorization": "Bearer ${TOKEN}"}},
          {"name": "b", "url": "https://alice:hunter22@auth.example.com/"},
          {"name": "c", "url": "https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef"},
          {"name": "d", "url": "https://rpc.example.com/rpc?token=abcdef&cluster=devnet"}]}]})";
    const ConfigResult result = loadConfigText(config, "config.json", env);
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    QCOMPARE(SecretScrubber(result.config()).scrub(text), expected);
}

void TestRedaction::plantedSecretNeverAppears_data()
{
    QTest::addColumn<QByteArray>("node");

    QTest::newRow("query") << QByteArray(R"("url": "https://h.example/?q=${S}")");
    QTest::newRow("path") << QByteArray(R"("url": "https://h.example/v2/${S}/")");
    QTest::newRow("password") << QByteArray(R"("url": "https://user:${S}@h.example/")");
    QTest::newRow("user") << QByteArray(R"("url": "https://${S}@h.example/")");
    QTest::newRow("host label") << QByteArray(R"("url": "https://${S}.h.example/")");
    QTest::newRow("header") << QByteArray(
        R"("url": "https://h.example/", "headers": {"X-Key": "${S}"})");
    QTest::newRow("literal in path")
        << QByteArray(R"("url": "https://h.example/)" + planted.toLatin1() + "\"");
}

void TestRedaction::plantedSecretNeverAppears()
{
    QFETCH(QByteArray, node);

    QProcessEnvironment env;
    env.insert("S", planted);
    const QByteArray text = R"({"networks": [{"name": "eth", "family": "evm", "chainId": 1,
        "nodes": [{"name": "a", )" +
                            node + "}]}]}";
    const ConfigResult result = loadConfigText(text, "config.json", env);
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    const NodeConfig& config = result.config().networks[0].nodes[0];
    const SecretScrubber scrubber(result.config());

    QStringList outputs;
    outputs << switchyard::redactedUrl(config.url) << redactedUrlText(config.urlTemplate);
    for (const HttpHeader& header : config.headers)
        outputs << redactedHeader(header);
    for (const auto options : {QUrl::ComponentFormattingOptions(QUrl::PrettyDecoded),
                               QUrl::ComponentFormattingOptions(QUrl::FullyEncoded)}) {
        outputs << scrubber.scrub("failed: " + config.url.toString(options) + " (timeout)")
                << scrubber.scrub(config.url.toDisplayString(options));
    }
    // QUrl lower-cases hosts, so a key in a host label also shows up lower-cased.
    outputs << scrubber.scrub("the key was " + planted + ", host " + config.url.host());
    outputs << scrubber.scrub(QString::fromLatin1(QUrl::toPercentEncoding(planted)));
    for (const QString& output : outputs)
        QVERIFY2(!output.contains(planted, Qt::CaseInsensitive), qPrintable(output));
}

void TestRedaction::scrubLeavesOrdinaryTextAlone()
{
    QProcessEnvironment env;
    env.insert("SHORT", "abc"); // too short to hide without mangling words
    const QByteArray text = R"({"networks": [{"name": "solana-devnet", "family": "evm",
        "chainId": 1, "nodes": [{"name": "primary",
        "url": "https://api.devnet.solana.com/?x=${SHORT}"}]}]})";
    const ConfigResult result = loadConfigText(text, "config.json", env);
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    const SecretScrubber scrubber(result.config());
    const QString message = QStringLiteral("node primary of solana-devnet at slot 123 answered abc "
                                           "in 40 ms from api.devnet.solana.com");
    QCOMPARE(scrubber.scrub(message), message);
    QVERIFY(SecretScrubber().isEmpty());
    QCOMPARE(SecretScrubber().scrub(message), message);
}

void TestRedaction::scrubReplacesLongestFirst()
{
    SecretScrubber scrubber;
    scrubber.addSecret("abcd1234");
    scrubber.addSecret("abcd1234efgh5678");
    QCOMPARE(scrubber.scrub("k=abcd1234efgh5678 and abcd1234"), r("k=*** and ***"));
    scrubber.addSecret("xyz"); // under 4 characters: ignored
    QCOMPARE(scrubber.scrub("xyz"), "xyz");
}

QTEST_GUILESS_MAIN(TestRedaction)
#include "tst_redaction.moc"
