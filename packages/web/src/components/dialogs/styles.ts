/** The stylesheets of the dialogs' Mantine parts (see app/mantine-styles.ts for why per component). */
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Code.css';
