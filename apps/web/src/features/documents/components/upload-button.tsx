import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import Button from '@mui/material/Button';
import { useRef } from 'react';
import { DOCUMENT_ACCEPT } from '../../../components/documents/use-document-upload';

/** « Importer des fichiers »: the system's file picker (several at once, the accepted formats). */
export function UploadButton({ onFiles, variant = 'contained' }: { onFiles: (files: File[]) => void; variant?: 'contained' | 'outlined' | 'text' }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button variant={variant} startIcon={<FileUploadOutlined />} onClick={() => input.current?.click()}>
        Importer des fichiers
      </Button>
      {/* Hidden: the button opens it (a button holding an input would nest two controls). */}
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={DOCUMENT_ACCEPT}
        onChange={(event) => {
          const files = Array.from(event.currentTarget.files ?? []);
          // Emptied at once: choosing the same file again must fire a change.
          event.currentTarget.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </>
  );
}
