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
    void redactedUrlTextOfTemplates();

    void harmlessWords_data();
    void harmlessWords();

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

    // The issue's own: short, plain keys that looked like words to a length/entropy guess.
    QTest::newRow("short plain key in the path")
        << "https://x.example/v2/SECRETKEY" << r("https://x.example/v2/***");
    QTest::newRow("key with a trailing slash")
        << "http://x.example:8545/QUERYSECRET999/" << r("http://x.example:8545/***/");
    QTest::newRow("key after rpc, token in the query")
        << "https://x.example/rpc/mysecretkey?token=abc"
        << r("https://x.example/rpc/***?token=***");
    QTest::newRow("one-letter key") << "https://x.example/v1/k" << r("https://x.example/v1/***");

    // Provider URL styles as their documentation gives them.
    QTest::newRow("alchemy") << "https://eth-mainnet.g.alchemy.com/v2/aBcD3fGh1jKlMn0pQrStUv"
                             << r("https://eth-mainnet.g.alchemy.com/v2/***");
    QTest::newRow("alchemy websocket") << "wss://solana-mainnet.g.alchemy.com/v2/demo"
                                       << r("wss://solana-mainnet.g.alchemy.com/v2/***");
    QTest::newRow("infura") << "https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef"
                            << r("https://mainnet.infura.io/v3/***");
    QTest::newRow("infura with its project secret")
        << "https://:s3cr3t@sepolia.infura.io/v3/0123456789abcdef"
        << r("https://***@sepolia.infura.io/v3/***");
    QTest::newRow("quicknode") << "https://young-wild-sea.solana-mainnet.quiknode.pro/a1b2c3d4/"
                               << r("https://young-wild-sea.solana-mainnet.quiknode.pro/***/");
    QTest::newRow("quicknode avalanche")
        << "https://name.avalanche-mainnet.quiknode.pro/tok3n/ext/bc/C/rpc"
        << r("https://name.avalanche-mainnet.quiknode.pro/***/ext/bc/C/rpc");
    QTest::newRow("helius") << "https://mainnet.helius-rpc.com/?api-key=abcd-1234"
                            << r("https://mainnet.helius-rpc.com/?api-key=***");
    QTest::newRow("ankr") << "https://rpc.ankr.com/eth/0123abcd"
                          << r("https://rpc.ankr.com/eth/***");
    QTest::newRow("ankr sepolia") << "https://rpc.ankr.com/eth_sepolia/0123abcd"
                                  << r("https://rpc.ankr.com/eth_sepolia/***");
    QTest::newRow("chainstack") << "https://nd-123-456-789.p2pify.com/3c6e0b8a9c15224a"
                                << r("https://nd-123-456-789.p2pify.com/***");
    QTest::newRow("chainstack with password")
        << "https://user-name:pass-word@nd-123-456-789.p2pify.com"
        << r("https://***@nd-123-456-789.p2pify.com");
    QTest::newRow("chainstack core") << "https://solana-mainnet.core.chainstack.com/k3y"
                                     << r("https://solana-mainnet.core.chainstack.com/***");
    QTest::newRow("triton") << "https://acme-mainnet.rpcpool.com/0c0ffee"
                            << r("https://acme-mainnet.rpcpool.com/***");
    QTest::newRow("getblock") << "https://go.getblock.io/abcdef" << r("https://go.getblock.io/***");
    QTest::newRow("getblock legacy") << "https://eth.getblock.io/mainnet/?api_key=abc"
                                     << r("https://eth.getblock.io/mainnet/?api_key=***");
    QTest::newRow("blast") << "https://eth-mainnet.blastapi.io/5f1e6a2b-7c3d"
                           << r("https://eth-mainnet.blastapi.io/***");
    QTest::newRow("drpc") << "https://lb.drpc.org/ogrpc?network=ethereum&dkey=KEY"
                          << r("https://lb.drpc.org/ogrpc?network=ethereum&dkey=***");
    QTest::newRow("drpc by path") << "https://lb.drpc.org/ethereum/Av0tqtt"
                                  << r("https://lb.drpc.org/ethereum/***");
    QTest::newRow("nodereal") << "https://eth-mainnet.nodereal.io/v1/abc"
                              << r("https://eth-mainnet.nodereal.io/v1/***");
    QTest::newRow("syndica") << "https://solana-mainnet.api.syndica.io/api-key/k3y"
                             << r("https://solana-mainnet.api.syndica.io/***/***");

    // URL parts.
    QTest::newRow("every query value")
        << "https://h.example/rpc?a=1&b=two&empty=&flag&network=mainnet"
        << r("https://h.example/rpc?a=***&b=***&empty=&***&network=mainnet");
    QTest::newRow("encoded query value")
        << "https://h.example/?k=a%26b%3Dc&x=1" << r("https://h.example/?k=***&x=***");
    QTest::newRow("encoded harmless word") << "https://h.example/%76%32"
                                           << "https://h.example/v2"; // QUrl decodes %76%32
    QTest::newRow("encoded key") << "https://h.example/a%20b" << r("https://h.example/***");
    QTest::newRow("userinfo") << "https://user:pa55word@h.example:8443/rpc"
                              << r("https://***@h.example:8443/rpc");
    QTest::newRow("user only") << "https://apikey@h.example/" << r("https://***@h.example/");
    QTest::newRow("fragment dropped")
        << "https://rpc.example.com/rpc#token=abc" << r("https://rpc.example.com/rpc");
    QTest::newRow("uuid") << "https://rpc.example.com/solana/123e4567-e89b-12d3-a456-426614174000"
                          << r("https://rpc.example.com/solana/***");
    QTest::newRow("number") << "https://rpc.example.com/v1/1234"
                            << r("https://rpc.example.com/v1/***");
    QTest::newRow("camel case words")
        << "https://rpc.example.com/MyCompanyMainnetEndpoint" << r("https://rpc.example.com/***");
    QTest::newRow("host and port kept") << "https://abc123def456ghi789jk.rpc.example.com:9443/"
                                        << "https://abc123def456ghi789jk.rpc.example.com:9443/";
    QTest::newRow("all at once")
        << "https://u:p@rpc.example.com:8443/v3/0123456789abcdef?api-key=k&network=eth#f"
        << r("https://***@rpc.example.com:8443/v3/***?api-key=***&network=eth");
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
          "https://arbitrum-sepolia.example.org/v1/mainnet", "https://rpc.example.com/RPC",
          "https://rpc.example.com/eth_sepolia", "https://lb.drpc.org/ogrpc?network=ethereum",
          "https://rpc.example.com/?cluster=devnet&network=mainnet-beta"})
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

void TestRedaction::redactedUrlTextOfTemplates()
{
    QCOMPARE(redactedUrlText("https://rpc.example.com/?api-key=${BACKUP_KEY}"),
             r("https://rpc.example.com/?api-key=***"));
    QCOMPARE(redactedUrlText("https://rpc.example.com/v2/${ALCHEMY_KEY}"),
             r("https://rpc.example.com/v2/***"));
    QCOMPARE(redactedUrlText("http://127.0.0.1:${PORT}/rpc"), "http://127.0.0.1:${PORT}/rpc");
    QCOMPARE(redactedUrlText("ftp://x"), "ftp://x");
    QCOMPARE(redactedUrlText("https://rpc.example.com/v3/" + planted),
             r("https://rpc.example.com/v3/***"));
    QCOMPARE(redactedUrlText(r("https://rpc.example.com/v3/***?k=***")),
             r("https://rpc.example.com/v3/***?k=***"));
}

void TestRedaction::harmlessWords_data()
{
    QTest::addColumn<QString>("word");
    QTest::addColumn<bool>("harmless");

    QTest::newRow("v2") << "v2" << true;
    QTest::newRow("RPC in capitals") << "RPC" << true;
    QTest::newRow("joined by -") << "solana-mainnet-beta" << true;
    QTest::newRow("joined by _") << "eth_sepolia" << true;
    QTest::newRow("C (Avalanche)") << "C" << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("a listed word and another") << "solana-archive" << false;
    QTest::newRow("dangling joint") << "eth-" << false;
    QTest::newRow("a short key") << "SECRETKEY" << false;
    QTest::newRow("a number") << "42" << false;
    QTest::newRow("a word not on the list") << "demo" << false;
    QTest::newRow("a reference") << "${KEY}" << false;
    QTest::newRow("the planted key") << planted << false;
}

void TestRedaction::harmlessWords()
{
    QFETCH(QString, word);
    QFETCH(bool, harmless);
    QCOMPARE(isHarmlessUrlWord(word), harmless);
}

void TestRedaction::headers()
{
    QCOMPARE(redactedHeaderValue("Bearer " + planted.toUtf8()), mark);
    QCOMPARE(redactedHeaderValue("k"), mark);
    QCOMPARE(redactedHeaderValue(""), QString());
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
    QTest::newRow("query item in context") << "sent token=abcdef" << r("sent token=***");
    QTest::newRow("harmless query value") << "sent cluster=devnet"
                                          << "sent cluster=devnet";
    QTest::newRow("ordinary query value elsewhere") << "network solana-devnet is up"
                                                    << "network solana-devnet is up";
    QTest::newRow("short plain path key alone")
        << "invalid key SECRETKEY for this plan" << r("invalid key *** for this plan");
    QTest::newRow("short path key in an echoed URL")
        << "403 for https://x.example/v2/SECRETKEY: denied"
        << r("403 for https://x.example/v2/***: denied");
    QTest::newRow("path key with its slashes")
        << "GET /QUERYSECRET999/ failed" << r("GET /***/ failed");
    QTest::newRow("key after rpc and its query")
        << "POST http://h.example/rpc/mysecretkey?token=tok42 refused (mysecretkey, tok42)"
        << r("POST http://h.example/rpc/***?token=*** refused (***, ***)");
    QTest::newRow("harmless words stay") << "eth mainnet rpc v2 is up"
                                         << "eth mainnet rpc v2 is up";
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
          {"name": "d", "url": "https://rpc.example.com/rpc?token=abcdef&cluster=devnet"},
          {"name": "e", "url": "https://x.example/v2/SECRETKEY"},
          {"name": "f", "url": "http://q.example:8545/QUERYSECRET999/"},
          {"name": "g", "url": "http://h.example/rpc/mysecretkey?token=tok42"}]}]})";
    const ConfigResult result = loadConfigText(config, "config.json", env);
    QVERIFY2(result.ok(), qPrintable(result.errorText()));
    QCOMPARE(SecretScrubber(result.config()).scrub(text), expected);
}

void TestRedaction::plantedSecretNeverAppears_data()
{
    QTest::addColumn<QByteArray>("node");
    QTest::addColumn<QString>("secret");

    const QList<std::pair<const char*, QByteArray>> places{
        {"query", R"("url": "https://h.example/?q=${S}")"},
        {"bare query item", R"("url": "https://h.example/rpc?${S}")"},
        {"path", R"("url": "https://h.example/v2/${S}/")"},
        {"after rpc, with a query", R"("url": "https://h.example/rpc/${S}?network=eth")"},
        {"fragment", R"("url": "https://h.example/rpc#${S}")"},
        {"password", R"("url": "https://user:${S}@h.example/")"},
        {"user", R"("url": "https://${S}@h.example/")"},
        {"header", R"("url": "https://h.example/", "headers": {"X-Key": "${S}"})"},
    };
    // Long and random, and short and plain: neither may show.
    for (const QString& secret : {planted, QStringLiteral("SECRETKEY")}) {
        for (const auto& [place, node] : places)
            QTest::addRow("%s, %s", place, qPrintable(secret)) << node << secret;
    }
    QTest::newRow("literal in path")
        << QByteArray(R"("url": "https://h.example/)" + planted.toLatin1() + "\"") << planted;
}

void TestRedaction::plantedSecretNeverAppears()
{
    QFETCH(QByteArray, node);
    QFETCH(QString, secret);

    QProcessEnvironment env;
    env.insert("S", secret);
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
    outputs << scrubber.scrub("the key was " + secret + ", remember it");
    outputs << scrubber.scrub(QString::fromLatin1(QUrl::toPercentEncoding(secret)));
    for (const QString& output : outputs)
        QVERIFY2(!output.contains(secret), qPrintable(output));
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
