#pragma once

// A certificate authority made for one test run with the openssl command (Debian: openssl), and
// the server certificates the TLS tests need from it. Everything lives in a temporary folder
// that goes with the object.

#include <QFile>
#include <QProcess>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#include <QTemporaryDir>

namespace switchyard::testing {

class TestCa
{
public:
    // A server certificate and its key, as files and as a server's TLS configuration.
    struct Leaf
    {
        QString certificateFile;
        QString keyFile;
        QSslConfiguration serverConfiguration() const
        {
            QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
            configuration.setLocalCertificate(QSslCertificate::fromPath(certificateFile).value(0));
            QFile key(keyFile);
            key.open(QIODevice::ReadOnly);
            configuration.setPrivateKey(QSslKey(key.readAll(), QSsl::Ec));
            configuration.setPeerVerifyMode(QSslSocket::VerifyNone);
            return configuration;
        }
    };

    // `name` goes into the CA's subject, so two authorities of one run differ.
    explicit TestCa(const QString& name = QStringLiteral("Switchyard Test CA"))
    {
        if (!m_dir.isValid()) {
            m_error = QStringLiteral("no temporary folder");
            return;
        }
        QFile(path(QStringLiteral("index.txt"))).open(QIODevice::WriteOnly);
        writeFile(QStringLiteral("serial"), "01\n");
        writeFile(QStringLiteral("ca.cnf"), caConfig());
        run({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
             QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
             QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
             QStringLiteral("-keyout"), path(QStringLiteral("ca.key")), QStringLiteral("-out"),
             caFile(), QStringLiteral("-subj"), QStringLiteral("/CN=") + name,
             QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-addext"),
             QStringLiteral("basicConstraints=critical,CA:TRUE"), QStringLiteral("-addext"),
             QStringLiteral("keyUsage=critical,keyCertSign,cRLSign")});
    }

    bool isValid() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    QString caFile() const { return path(QStringLiteral("ca.pem")); }

    // For 127.0.0.1 and localhost, valid now.
    Leaf goodLeaf() { return leaf(QStringLiteral("good"), QStringLiteral("good_ext"), {}); }
    // Valid now, but for another host name only.
    Leaf wrongHostLeaf() { return leaf(QStringLiteral("wrong"), QStringLiteral("wrong_ext"), {}); }
    // For 127.0.0.1, but valid only for one day a year ago.
    Leaf expiredLeaf()
    {
        const QDateTime start = QDateTime::currentDateTimeUtc().addYears(-1);
        return leaf(QStringLiteral("expired"), QStringLiteral("good_ext"),
                    {QStringLiteral("-startdate"),
                     start.toString(QStringLiteral("yyyyMMddHHmmss'Z'")),
                     QStringLiteral("-enddate"),
                     start.addDays(1).toString(QStringLiteral("yyyyMMddHHmmss'Z'"))});
    }

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }

    void writeFile(const QString& name, const QByteArray& text)
    {
        QFile file(path(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            m_error = QStringLiteral("cannot write %1").arg(path(name));
    }

    QByteArray caConfig() const
    {
        const QByteArray dir = m_dir.path().toUtf8();
        return "[ca]\ndefault_ca = test\n"
               "[test]\ndatabase = " +
               dir + "/index.txt\nnew_certs_dir = " + dir + "\ncertificate = " + dir +
               "/ca.pem\nprivate_key = " + dir + "/ca.key\nserial = " + dir +
               "/serial\ndefault_md = sha256\ndefault_days = 2\npolicy = any\n"
               "unique_subject = no\nemail_in_dn = no\n"
               "[any]\ncommonName = supplied\n"
               "[good_ext]\nbasicConstraints = CA:FALSE\nextendedKeyUsage = serverAuth\n"
               "subjectAltName = IP:127.0.0.1,DNS:localhost\n"
               "[wrong_ext]\nbasicConstraints = CA:FALSE\nextendedKeyUsage = serverAuth\n"
               "subjectAltName = DNS:wrong-host.example\n";
    }

    Leaf leaf(const QString& name, const QString& extensions, const QStringList& dates)
    {
        Leaf made{path(name + QStringLiteral(".pem")), path(name + QStringLiteral(".key"))};
        if (!QFile::exists(made.certificateFile)) {
            const QString request = path(name + QStringLiteral(".csr"));
            run({QStringLiteral("req"), QStringLiteral("-new"), QStringLiteral("-newkey"),
                 QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                 QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                 QStringLiteral("-keyout"), made.keyFile, QStringLiteral("-out"), request,
                 QStringLiteral("-subj"), QStringLiteral("/CN=") + name});
            run(QStringList{QStringLiteral("ca"), QStringLiteral("-batch"),
                            QStringLiteral("-notext"), QStringLiteral("-config"),
                            path(QStringLiteral("ca.cnf")), QStringLiteral("-extensions"),
                            extensions, QStringLiteral("-in"), request, QStringLiteral("-out"),
                            made.certificateFile} +
                dates);
        }
        return made;
    }

    void run(const QStringList& arguments)
    {
        if (!m_error.isEmpty())
            return;
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"), arguments);
        if (!openssl.waitForFinished(60'000) || openssl.exitStatus() != QProcess::NormalExit ||
            openssl.exitCode() != 0)
            m_error = QStringLiteral("openssl %1 failed (is the openssl package installed?): %2 %3")
                          .arg(arguments.join(u' '), openssl.errorString(),
                               QString::fromLocal8Bit(openssl.readAllStandardError()));
    }

    QTemporaryDir m_dir;
    QString m_error;
};

} // namespace switchyard::testing
