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
#include <QProcessEnvironment>
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

NodeForm::NodeForm(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_name(new QLineEdit)
    , m_url(new QLineEdit)
    , m_preview(new QLabel)
    , m_urlHint(new QLabel)
    , m_headers(new QTableWidget(0, HeaderColumnCount))
{
    m_title->setFont(withPointSize(font(), headerPointSize + 2, true));
    m_name->setObjectName(QStringLiteral("nodeName"));
    m_url->setObjectName(QStringLiteral("nodeUrl"));
    m_url->setPlaceholderText(QStringLiteral("https://rpc.example.com/?api-key=${RPC_KEY}"));
    m_preview->setObjectName(QStringLiteral("urlPreview"));
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_urlHint->setWordWrap(true);
    setTextColor(m_urlHint, QColor(0x44, 0x44, 0x44));

    auto* urlCell = new QWidget;
    auto* urlLayout = new QVBoxLayout(urlCell);
    urlLayout->setContentsMargins(0, 0, 0, 0);
    urlLayout->setSpacing(4);
    m_url->setParent(urlCell);
    urlLayout->addWidget(m_url);
    auto* previewRow = new QHBoxLayout;
    auto* previewLabel = new QLabel(tr("Shown everywhere as:"), urlCell);
    previewRow->addWidget(previewLabel);
    m_preview->setParent(urlCell);
    QFont previewFont = m_preview->font();
    previewFont.setFamily(QStringLiteral("DejaVu Sans Mono"));
    m_preview->setFont(previewFont);
    previewRow->addWidget(m_preview, 1);
    urlLayout->addLayout(previewRow);
    m_urlHint->setParent(urlCell);
    urlLayout->addWidget(m_urlHint);

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
    auto* headersLayout = new QVBoxLayout(headersCell);
    headersLayout->setContentsMargins(0, 0, 0, 0);
    m_headers->setParent(headersCell);
    m_headers->setObjectName(QStringLiteral("headers"));
    m_headers->setHorizontalHeaderLabels({tr("Header"), tr("Value (use ${NAME} for secrets)")});
    m_headers->horizontalHeader()->setStretchLastSection(true);
    m_headers->horizontalHeader()->resizeSection(HeaderName, 220);
    m_headers->verticalHeader()->hide();
    m_headers->setItemDelegateForColumn(HeaderValue, new HeaderValueDelegate(m_headers));
    m_headers->setFixedHeight(m_headers->fontMetrics().height() * 7);
    headersLayout->addWidget(m_headers);
    auto* headerButtons = new QHBoxLayout;
    auto* addHeaderButton = new QPushButton(tr("Add header"), headersCell);
    auto* removeHeaderButton = new QPushButton(tr("Remove header"), headersCell);
    headerButtons->addWidget(addHeaderButton);
    headerButtons->addWidget(removeHeaderButton);
    headerButtons->addStretch();
    headersLayout->addLayout(headerButtons);
    headersLayout->addStretch();
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
    form->setVerticalSpacing(10);
    m_errors.insert(QStringLiteral("name"), addField(form, tr("Name"), m_name));
    m_errors.insert(QStringLiteral("url"), addField(form, tr("URL"), urlCell));
    m_errors.insert(QStringLiteral("roles"), addField(form, tr("Roles"), rolesCell));
    m_errors.insert(QStringLiteral("headers"), addField(form, tr("Headers"), headersCell));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addSpacing(8);
    layout->addLayout(form);
    layout->addStretch();

    connect(m_name, &QLineEdit::textChanged, this, &NodeForm::changed);
    connect(m_url, &QLineEdit::textChanged, this, &NodeForm::changed);
    connect(m_url, &QLineEdit::editingFinished, this, &NodeForm::updatePreview);
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

void NodeForm::updatePreview()
{
    const QString text = m_url->text();
    m_preview->setText(text.isEmpty() ? QStringLiteral("—") : redactedUrlText(text));
    // A key typed out in full stays hidden unless the field is being edited.
    const bool literalSecret = urlHoldsLiteralSecret(text);
    m_url->setEchoMode(literalSecret && !m_url->hasFocus() ? QLineEdit::PasswordEchoOnEdit
                                                           : QLineEdit::Normal);
    QStringList notes;
    if (literalSecret)
        notes << tr("This URL holds a key in plain text. Write it as ${NAME} and set the "
                    "environment variable: the file then keeps only the name.");
    const EnvTemplate parsed(text);
    if (parsed.isValid()) {
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QStringList unset;
        for (const QString& name : parsed.variableNames())
            if (env.value(name).isEmpty())
                unset << name;
        if (!unset.isEmpty())
            notes << tr("Not set here: %1. The file can be saved; the node connects once the "
                        "variable is set.")
                         .arg(unset.join(QStringLiteral(", ")));
    }
    if (notes.isEmpty())
        notes << tr("Keys belong in ${NAME} variables; ${NAME} is kept as written when saving.");
    m_urlHint->setText(notes.join(u'\n'));
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
