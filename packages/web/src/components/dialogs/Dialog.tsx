import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Overlay.css';
import { Modal, type ModalProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The portal's dialogs: a Mantine modal, centred, its close button named in the language shown. */
export function Dialog(props: ModalProps) {
  const { t } = useTranslation();
  return <Modal centered closeButtonProps={{ 'aria-label': t('common.close') }} {...props} />;
}
