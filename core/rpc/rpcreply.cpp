#include "rpcreply.h"

namespace switchyard {

QString outcomeClassName(OutcomeClass outcomeClass)
{
    switch (outcomeClass) {
    case OutcomeClass::Result:
        return QStringLiteral("result");
    case OutcomeClass::RpcError:
        return QStringLiteral("rpc-error");
    case OutcomeClass::HttpStatus:
        return QStringLiteral("http");
    case OutcomeClass::Transport:
        return QStringLiteral("transport");
    case OutcomeClass::Malformed:
        return QStringLiteral("malformed");
    }
    Q_UNREACHABLE();
}

QString transportFailureName(TransportFailureKind kind)
{
    switch (kind) {
    case TransportFailureKind::Refused:
        return QStringLiteral("refused");
    case TransportFailureKind::Reset:
        return QStringLiteral("reset");
    case TransportFailureKind::Timeout:
        return QStringLiteral("timeout");
    case TransportFailureKind::Tls:
        return QStringLiteral("tls");
    case TransportFailureKind::Dns:
        return QStringLiteral("dns");
    case TransportFailureKind::Truncated:
        return QStringLiteral("truncated");
    case TransportFailureKind::Other:
        return QStringLiteral("network");
    }
    Q_UNREACHABLE();
}

QString malformedKindName(MalformedKind kind)
{
    switch (kind) {
    case MalformedKind::NotJson:
        return QStringLiteral("not-json");
    case MalformedKind::NotJsonRpc2:
        return QStringLiteral("not-jsonrpc-2.0");
    case MalformedKind::WrongId:
        return QStringLiteral("wrong-id");
    case MalformedKind::ResultAndError:
        return QStringLiteral("result-and-error");
    case MalformedKind::NeitherResultNorError:
        return QStringLiteral("neither-result-nor-error");
    case MalformedKind::BadErrorObject:
        return QStringLiteral("bad-error-object");
    case MalformedKind::TooLarge:
        return QStringLiteral("too-large");
    case MalformedKind::MissingBatchElement:
        return QStringLiteral("missing-batch-element");
    case MalformedKind::InvalidAnswer:
        return QStringLiteral("invalid-answer");
    }
    Q_UNREACHABLE();
}

QString tlsProblemName(TlsProblem problem)
{
    switch (problem) {
    case TlsProblem::UnknownAuthority:
        return QStringLiteral("unknown-ca");
    case TlsProblem::WrongHost:
        return QStringLiteral("wrong-host");
    case TlsProblem::Expired:
        return QStringLiteral("expired");
    case TlsProblem::Other:
        return QStringLiteral("other");
    }
    Q_UNREACHABLE();
}

namespace {

struct Describer
{
    QString operator()(const RpcResult& r) const
    {
        return r.value.isNull() ? QStringLiteral("result: null") : QStringLiteral("result");
    }
    QString operator()(const RpcError& e) const
    {
        return QStringLiteral("RPC error %1: %2").arg(e.code).arg(e.message);
    }
    QString operator()(const HttpFailure& h) const
    {
        QString text = QStringLiteral("HTTP %1").arg(h.status);
        if (h.retryAfterMs)
            text += QStringLiteral(" (retry after %1 s%2)")
                        .arg(double(*h.retryAfterMs) / 1000.0)
                        .arg(h.retryAfterCapped ? QStringLiteral(", the longest Switchyard waits")
                                                : QString());
        return text;
    }
    QString operator()(const TransportFailure& t) const
    {
        QString text = transportFailureName(t.kind);
        if (t.tlsProblem)
            text += QLatin1Char(' ') + tlsProblemName(*t.tlsProblem);
        if (!t.detail.isEmpty())
            text += QStringLiteral(": ") + t.detail;
        return text;
    }
    QString operator()(const MalformedReply& m) const
    {
        QString text = QStringLiteral("malformed (%1)").arg(malformedKindName(m.kind));
        if (!m.detail.isEmpty())
            text += QStringLiteral(": ") + m.detail;
        return text;
    }
};

} // namespace

RpcReply invalidAnswer(RpcReply reply, const QString& why)
{
    reply.outcome = MalformedReply{MalformedKind::InvalidAnswer, why};
    return reply;
}

QString RpcReply::describe() const
{
    return std::visit(Describer{}, outcome);
}

} // namespace switchyard
