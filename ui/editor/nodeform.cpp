#include "nodeform.h"

#include "appearance.h"
#include "config/envtemplate.h"
#include "config/redaction.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

enum HeaderColumn
{
    HeaderName,
    HeaderValue,
    HeaderColumnCount
};

// Header values are shown as written when they only reference variables ("Bearer ${TOKEN}"),
// and as ••• when they carry a key in plain text; the editor shows the text while editing.
class HeaderValueDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QString displayText(const QVariant& value, const QLocale& locale) const override
    {
        const QString text = value.toString();
        return headerHoldsLiteralSecret(text) ? redactionMark()
                                              : QStyledItemDelegate::displayText(value, locale);
    }
};

} // namespace

namespace {

// An endpoint field with how every view will show it under it.
QWidget* endpointCell(QLineEdit* edit, QLabel* preview)
{
    auto* cell = new QWidget;
    auto* layout = new QVBoxLayout(cell);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    edit->setParent(cell);
    layout->addWidget(edit);
    auto* previewRow = new QHBoxLayout;
    previewRow->addWidget(new QLabel(QObject::tr("Shown everywhere as:"), cell));
    preview->setParent(cell);
    preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont previewFont = preview->font();
    previewFont.setFamily(QStringLiteral("DejaVu Sans Mono"));
    preview->setFont(previewFont);
    // A long URL wraps rather than widening the form past the screen.
    preview->setWordWrap(true);
    previewRow->addWidget(preview, 1);
    layout->addLayout(previewRow);
    return cell;
}

} // namespace

NodeForm::NodeForm(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_name(new QLineEdit)
    , m_url(new QLineEdit)
    , m_preview(new QLabel)
    , m_urlHint(new QLabel)
    , m_wsUrl(new QLineEdit)
    , m_wsPreview(new QLabel)
    , m_headers(new QTableWidget(0, HeaderColumnCount))
    , m_caFile(new QLineEdit)
    , m_cleartextHttp2(new QCheckBox(tr("Speak HTTP/2 from the first byte (h2c; http:// only)")))
{
    m_title->setFont(withPointSize(font(), headerPointSize + 2, true));
    m_name->setObjectName(QStringLiteral("nodeName"));
    m_url->setObjectName(QStringLiteral("nodeUrl"));
    m_url->setPlaceholderText(QStringLiteral("https://rpc.example.com/?api-key=${RPC_KEY}"));
    m_preview->setObjectName(QStringLiteral("urlPreview"));
    m_urlHint->setWordWrap(true);
    setTextColor(m_urlHint, QColor(0x44, 0x44, 0x44));
    m_wsUrl->setObjectName(QStringLiteral("nodeWsUrl"));
    m_wsUrl->setPlaceholderText(
        tr("none: polled only (e.g. wss://rpc.example.com/?api-key=${RPC_KEY})"));
    m_wsPreview->setObjectName(QStringLiteral("wsUrlPreview"));
    m_caFile->setObjectName(QStringLiteral("nodeCaFile"));
    m_cleartextHttp2->setObjectName(QStringLiteral("cleartextHttp2"));

    QWidget* urlCell = endpointCell(m_url, m_preview);
    m_urlHint->setParent(urlCell);
    urlCell->layout()->addWidget(m_urlHint);

    auto* rolesCell = new QWidget;
    auto* rolesLayout = new QHBoxLayout(rolesCell);
    rolesLayout->setContentsMargins(0, 0, 0, 0);
    const std::pair<NodeRole, QString> roles[] = {
        {NodeRole::Read, tr("read")},
        {NodeRole::Build, tr("build (blockhash, nonce, simulation)")},
        {NodeRole::Send, tr("send")},
        {NodeRole::Status, tr("status lookups")},
    };
    for (const auto& [role, label] : roles) {
        auto* box = new QCheckBox(label, rolesCell);
        box->setObjectName(QStringLiteral("role%1").arg(int(role)));
        rolesLayout->addWidget(box);
        m_roles.append({role, box});
        connect(box, &QCheckBox::toggled, this, &NodeForm::changed);
    }
    rolesLayout->addStretch();

    auto* headersCell = new QWidget;
    auto* headersLayout = new QHBoxLayout(headersCell);
    headersLayout->setContentsMargins(0, 0, 0, 0);
    m_headers->setParent(headersCell);
    m_headers->setObjectName(QStringLiteral("headers"));
    m_headers->setHorizontalHeaderLabels({tr("Header"), tr("Value (use ${NAME} for secrets)")});
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->horizontalHeader()->resizeSection(HeaderName, 200);
    m_headers->verticalHeader()->hide();
    m_headers->setItemDelegateForColumn(HeaderValue, new HeaderValueDelegate(m_headers));
    m_headers->setFixedHeight(m_headers->fontMetrics().height() * 5);
    headersLayout->addWidget(m_headers, 1);
    // Beside the table, not under it: the form stays short enough for a laptop screen.
    auto* headerButtons = new QVBoxLayout;
    auto* addHeaderButton = new QPushButton(tr("Add header"), headersCell);
    auto* removeHeaderButton = new QPushButton(tr("Remove header"), headersCell);
    headerButtons->addWidget(addHeaderButton);
    headerButtons->addWidget(removeHeaderButton);
    headerButtons->addStretch();
    headersLayout->addLayout(headerButtons);
    connect(addHeaderButton, &QPushButton::clicked, this, [this] {
        addHeader();
        m_headers->editItem(m_headers->item(m_headers->rowCount() - 1, HeaderName));
    });
    connect(removeHeaderButton, &QPushButton::clicked, this, [this] {
        const int row = m_headers->currentRow();
        if (row >= 0) {
            m_headers->removeRow(row);
            changed();
        }
    });
    connect(m_headers, &QTableWidget::itemChanged, this, &NodeForm::changed);

    auto* form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->setVerticalSpacing(8);
    const auto field = [this, form](const QString& key, QWidget* editor, QWidget* fieldEditor) {
        m_errors.insert(
            key, addField(form, QStringLiteral("networks[].nodes[].") + key, editor, fieldEditor));
    };
    field(QStringLiteral("name"), m_name, nullptr);
    field(QStringLiteral("url"), urlCell, m_url);
    field(QStringLiteral("roles"), rolesCell, nullptr);
    field(QStringLiteral("headers"), headersCell, m_headers);
    field(QStringLiteral("wsUrl"), endpointCell(m_wsUrl, m_wsPreview), m_wsUrl);
    field(QStringLiteral("caFile"), withBrowseButton(m_caFile), m_caFile);
    field(QStringLiteral("cleartextHttp2"), m_cleartextHttp2, nullptr);
    m_caFile->setPlaceholderText(tr("none: the network's CA file, if any"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addSpacing(4);
    layout->addLayout(form);
    layout->addStretch();

    for (QLineEdit* edit : {m_name, m_url, m_wsUrl, m_caFile})
        connect(edit, &QLineEdit::textChanged, this, &NodeForm::changed);
    connect(m_url, &QLineEdit::editingFinished, this, &NodeForm::updatePreview);
    connect(m_wsUrl, &QLineEdit::editingFinished, this, &NodeForm::updatePreview);
    connect(m_cleartextHttp2, &QCheckBox::toggled, this, &NodeForm::changed);
}

QCheckBox* NodeForm::roleBox(NodeRole role) const
{
    for (const auto& [candidate, box] : m_roles)
        if (candidate == role)
            return box;
    return nullptr;
}

void NodeForm::addHeader(const QString& name, const QString& valueTemplate)
{
    const bool wasLoading = std::exchange(m_loading, true);
    const int row = m_headers->rowCount();
    m_headers->insertRow(row);
    m_headers->setItem(row, HeaderName, new QTableWidgetItem(name));
    m_headers->setItem(row, HeaderValue, new QTableWidgetItem(valueTemplate));
    m_loading = wasLoading;
    changed();
}

void NodeForm::load(const NodeConfig& node, const QString& network)
{
    m_loading = true;
    m_network = network;
    m_title->setText(tr("Node “%1” of %2").arg(node.name, network));
    m_name->setText(node.name);
    m_url->setText(node.urlTemplate.isEmpty() && !node.url.isEmpty()
                       ? EnvTemplate::escape(node.url.toString())
                       : node.urlTemplate);
    m_wsUrl->setText(node.wsUrlTemplate.isEmpty() && !node.wsUrl.isEmpty()
                         ? EnvTemplate::escape(node.wsUrl.toString())
                         : node.wsUrlTemplate);
    m_caFile->setText(node.caFile);
    m_cleartextHttp2->setChecked(node.cleartextHttp2);
    for (const auto& [role, box] : m_roles)
        box->setChecked(node.roles.testFlag(role));
    m_headers->setRowCount(0);
    for (const HttpHeader& header : node.headers)
        addHeader(QString::fromLatin1(header.name),
                  header.valueTemplate.isEmpty()
                      ? EnvTemplate::escape(QString::fromUtf8(header.value))
                      : header.valueTemplate);
    updatePreview();
    m_loading = false;
}

void NodeForm::store(NodeConfig& node) const
{
    node.name = m_name->text();
    node.urlTemplate = m_url->text();
    // The template is what is saved; the expanded URL is made when the file is loaded.
    node.url = QUrl();
    node.wsUrlTemplate = m_wsUrl->text();
    node.wsUrl = QUrl();
    node.caFile = m_caFile->text();
    node.cleartextHttp2 = m_cleartextHttp2->isChecked();
    node.roles = {};
    for (const auto& [role, box] : m_roles)
        if (box->isChecked())
            node.roles |= role;
    node.headers.clear();
    for (int row = 0; row < m_headers->rowCount(); ++row) {
        const QTableWidgetItem* name = m_headers->item(row, HeaderName);
        const QTableWidgetItem* value = m_headers->item(row, HeaderValue);
        HttpHeader header;
        header.name = name ? name->text().toLatin1() : QByteArray();
        header.valueTemplate = value ? value->text() : QString();
        header.value = header.valueTemplate.toUtf8();
        if (header.name.isEmpty() && header.valueTemplate.isEmpty())
            continue; // a row added and left blank
        node.headers.append(header);
    }
}

void NodeForm::changed()
{
    if (m_loading)
        return;
    m_title->setText(tr("Node “%1” of %2").arg(m_name->text(), m_network));
    updatePreview();
    Q_EMIT edited();
}

QString NodeForm::urlPreview() const
{
    return m_preview->text();
}

QString NodeForm::wsUrlPreview() const
{
    return m_wsPreview->text();
}

void NodeForm::updatePreview()
{
    // A key typed out in full stays hidden unless the field is being edited.
    const auto preview = [](QLineEdit* edit, QLabel* shown) {
        const QString text = edit->text();
        shown->setText(text.isEmpty() ? QStringLiteral("—") : redactedUrlText(text));
        const bool literalSecret = urlHoldsLiteralSecret(text);
        edit->setEchoMode(literalSecret && !edit->hasFocus() ? QLineEdit::PasswordEchoOnEdit
                                                             : QLineEdit::Normal);
        return literalSecret;
    };
    const bool urlSecret = preview(m_url, m_preview);
    const bool wsSecret = preview(m_wsUrl, m_wsPreview);
    // Whether its variables are set here is the problem list's to say, once: it knows whether
    // that stops a save or only an apply.
    m_urlHint->setText(
        urlSecret || wsSecret
            ? tr("This URL holds a key in plain text. Write it as ${NAME} and set the "
                 "environment variable: the file then keeps only the name.")
            : tr("Keys belong in ${NAME} variables; ${NAME} is kept as written when saving."));
}

void NodeForm::showErrors(const FieldErrors& errors)
{
    for (auto it = m_errors.cbegin(); it != m_errors.cend(); ++it)
        it.value()->setMessages(errors.values(it.key()));
}

QString NodeForm::errorText(const QString& field) const
{
    const FieldErrorLabel* label = m_errors.value(field);
    return label ? label->messages().join(u'\n') : QString();
}

} // namespace switchyard::ui
