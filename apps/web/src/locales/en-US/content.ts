/**
 * Texts of the content screens (issue 16): file storage, banner groups and banners, article types and
 * articles. Field labels are `content.field.<key>`; list titles are the menu's (`menu.<page>`).
 */
const content = {
  content: {
    describe: {
      image_config: 'Where uploaded pictures are kept: on this server (the data folder) or in S3-compatible object storage. Pictures uploaded earlier stay where they were written.',
      rotation_type: 'The places on the bettor site that show banners. The site asks for a group by its code.',
      rotation: 'The banners of each group. Shown ones within their schedule appear on the site, larger sort first.',
      image_text_type: 'Kinds of article: news, help pages, terms and rules.',
      image_text: 'Articles with a cover picture, in one language each. The server removes scripts and unsafe markup when you save.',
    },
    field: {
      id: 'ID',
      upload_type: 'Storage',
      domain: 'Endpoint (domain)',
      region: 'Region',
      access_key_id: 'Access key ID',
      access_key_secret: 'Access key secret',
      bucket: 'Bucket',
      save_path: 'Save path',
      max_size: 'Largest upload (bytes)',
      allowed_types: 'Allowed picture types',
      code: 'Code',
      name: 'Name',
      remarks: 'Remarks',
      type_id: 'Type',
      picture: 'Picture',
      title: 'Title',
      description: 'Description',
      jump_url: 'Jump address',
      jump_type: 'Jump type',
      sort: 'Sort order',
      clicks: 'Clicks',
      shown: 'Shown',
      start_at: 'Show from',
      end_at: 'Show until',
      cover: 'Cover',
      body: 'Body',
      language: 'Language',
      created_at: 'Created',
      updated_at: 'Updated',
    },
    uploadType: {
      local: 'This server (data folder)',
      s3: 'S3-compatible storage',
    },
    help: {
      domain: 'The storage endpoint, e.g. https://s3.example.com. Needed for S3.',
      save_path: 'A folder for the pictures, e.g. console/pictures.',
      max_size: 'From 1024 bytes (1 KB) to 52428800 bytes (50 MB); 5242880 bytes = 5 MB.',
      allowed_types: 'Among png, jpeg, gif and webp, separated by commas. SVG is never accepted.',
      code: 'Lower case letters, digits, _ and -. It cannot be changed later.',
      jump_url: 'An in-app path such as /sports, or an https address.',
      sort: 'Larger numbers are shown first.',
      body: 'HTML. Allowed: headings, paragraphs, lists, links, pictures and tables; anything else is removed on save.',
    },
    body: {
      preview: 'Preview',
      insertPicture: 'Insert picture',
      empty: 'Nothing to preview yet',
    },
  },
};

export default content;
